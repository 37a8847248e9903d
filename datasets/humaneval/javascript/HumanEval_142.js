function sumSquares(lst) {
  let sum = 0;
  lst.forEach((x, i) => {
    if (i % 3 === 0) sum += x * x;
    else if (i % 4 === 0) sum += x * x * x;
    else sum += x;
  });
  return sum;
}

module.exports = { sumSquares };
