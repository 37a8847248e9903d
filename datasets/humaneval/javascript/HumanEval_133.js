function sumSquares(lst) {
  return lst.reduce((a, x) => a + Math.ceil(x) ** 2, 0);
}

module.exports = { sumSquares };
