function primeFib(n) {
  const isPrime = (p) => {
    if (p < 2) return false;
    for (let d = 2; d * d <= p; d++) if (p % d === 0) return false;
    return true;
  };
  let [a, b] = [0, 1];
  while (true) {
    [a, b] = [b, a + b];
    if (isPrime(b)) {
      n -= 1;
      if (n === 0) return b;
    }
  }
}

module.exports = { primeFib };
