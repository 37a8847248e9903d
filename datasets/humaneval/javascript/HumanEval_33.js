function sortThird(l) {
  const thirds = l.filter((_, i) => i % 3 === 0).sort((a, b) => a - b);
  return l.map((x, i) => (i % 3 === 0 ? thirds[i / 3] : x));
}

module.exports = { sortThird };
