function common(l1, l2) {
  const b = new Set(l2);
  return Array.from(new Set(l1.filter((x) => b.has(x)))).sort((x, y) => x - y);
}

module.exports = { common };
