function doubleTheDifference(lst) {
  return lst.filter((x) => Number.isInteger(x) && x > 0 && x % 2 === 1).reduce((a, x) => a + x * x, 0);
}

module.exports = { doubleTheDifference };
