function orderByPoints(nums) {
  const digitSum = (n) => {
    const ds = String(Math.abs(n)).split('').map(Number);
    if (n < 0) ds[0] = -ds[0];
    return ds.reduce((a, b) => a + b, 0);
  };
  return [...nums].sort((a, b) => digitSum(a) - digitSum(b));
}

module.exports = { orderByPoints };
