function fib4(n) {
  const f = [0, 0, 2, 0];
  if (n < 4) return f[n];
  for (let i = 4; i <= n; i++) {
    f.push(f[f.length - 1] + f[f.length - 2] + f[f.length - 3] + f[f.length - 4]);
    f.shift();
  }
  return f[3];
}

module.exports = { fib4 };
