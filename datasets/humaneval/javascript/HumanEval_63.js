function fibfib(n) {
  const f = [0, 0, 1];
  if (n < 3) return f[n];
  for (let i = 3; i <= n; i++) f.push(f[i - 1] + f[i - 2] + f[i - 3]);
  return f[n];
}

module.exports = { fibfib };
