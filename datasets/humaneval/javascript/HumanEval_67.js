function fruitDistribution(s, n) {
  const nums = s.split(' ').filter((w) => /^\d+$/.test(w)).map(Number);
  return n - nums.reduce((a, b) => a + b, 0);
}

module.exports = { fruitDistribution };
