function largestPrimeFactor(n) {
  let largest = 1;
  let d = 2;
  while (d * d <= n) {
    while (n % d === 0) {
      largest = d;
      n = n / d;
    }
    d += 1;
  }
  return n > 1 ? Math.max(largest, n) : largest;
}

module.exports = { largestPrimeFactor };
