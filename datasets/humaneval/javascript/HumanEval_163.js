function generateIntegers(a, b) {
  const lo = Math.max(2, Math.min(a, b));
  const hi = Math.min(8, Math.max(a, b));
  const out = [];
  for (let i = lo; i <= hi; i++) if (i % 2 === 0) out.push(i);
  return out;
}

module.exports = { generateIntegers };
