function willItFly(q, w) {
  const sum = q.reduce((a, b) => a + b, 0);
  if (sum > w) return false;
  for (let i = 0, j = q.length - 1; i < j; i++, j--) if (q[i] !== q[j]) return false;
  return true;
}

module.exports = { willItFly };
