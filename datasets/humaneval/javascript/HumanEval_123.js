function getOddCollatz(n) {
  const out = n % 2 === 1 ? [n] : [];
  while (n > 1) {
    n = n % 2 === 0 ? n / 2 : 3 * n + 1;
    if (n % 2 === 1) out.push(n);
  }
  return out.sort((a, b) => a - b);
}

module.exports = { getOddCollatz };
