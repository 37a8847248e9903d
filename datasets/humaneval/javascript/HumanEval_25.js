function factorize(n) {
  const out = [];
  let d = 2;
  while (d * d <= n) {
    while (n % d === 0) {
      out.push(d);
      n = n / d;
    }
    d += 1;
  }
  if (n > 1) out.push(n);
  return out;
}

module.exports = { factorize };
