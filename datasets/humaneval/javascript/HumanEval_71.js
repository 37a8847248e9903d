function triangleArea(a, b, c) {
  if (a + b <= c || a + c <= b || b + c <= a) return -1;
  const p = (a + b + c) / 2;
  const area = Math.sqrt(p * (p - a) * (p - b) * (p - c));
  return Math.round(area * 100) / 100;
}

module.exports = { triangleArea };
