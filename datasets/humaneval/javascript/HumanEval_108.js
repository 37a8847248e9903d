function countNums(arr) {
  const digitSum = (n) => {
    const neg = n < 0;
    const ds = String(Math.abs(n)).split('').map(Number);
    if (neg) ds[0] = -ds[0];
    return ds.reduce((a, b) => a + b, 0);
  };
  return arr.filter((n) => digitSum(n) > 0).length;
}

module.exports = { countNums };
