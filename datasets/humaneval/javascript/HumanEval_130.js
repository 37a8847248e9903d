function tri(n) {
  if (n === 0) return [1];
  const out = [1, 3];
  for (let i = 2; i <= n; i++) {
    if (i % 2 === 0) out.push(i / 2 + 1);
    else out.push(out[i - 1] + out[i - 2] + (i + 3) / 2);
  }
  return out;
}

module.exports = { tri };
