function prodSigns(arr) {
  if (arr.length === 0) return null;
  let sign = 1;
  let sum = 0;
  for (const x of arr) {
    if (x === 0) sign = 0;
    else if (x < 0) sign = -sign;
    sum += Math.abs(x);
  }
  return sign * sum;
}

module.exports = { prodSigns };
