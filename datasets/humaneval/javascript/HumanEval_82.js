function primeLength(string) {
  const n = string.length;
  if (n < 2) return false;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
  return true;
}

module.exports = { primeLength };
