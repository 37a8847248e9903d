function sumToN(n) {
  return (n * (n + 1)) / 2;
}

module.exports = { sumToN };
