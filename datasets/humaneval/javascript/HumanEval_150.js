function xOrY(n, x, y) {
  if (n < 2) return y;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) return y;
  return x;
}

module.exports = { xOrY };
