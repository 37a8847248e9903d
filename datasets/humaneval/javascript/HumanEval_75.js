function isMultiplyPrime(a) {
  const isPrime = (n) => {
    if (n < 2) return false;
    for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
    return true;
  };
  for (let i = 2; i <= 100; i++) {
    if (!isPrime(i)) continue;
    for (let j = 2; j <= 100; j++) {
      if (!isPrime(j)) continue;
      for (let k = 2; k <= 100; k++) {
        if (isPrime(k) && i * j * k === a) return true;
      }
    }
  }
  return false;
}

module.exports = { isMultiplyPrime };
