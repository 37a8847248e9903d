function sortEven(l) {
  const evens = l.filter((_, i) => i % 2 === 0).sort((a, b) => a - b);
  return l.map((x, i) => (i % 2 === 0 ? evens[i / 2] : x));
}

module.exports = { sortEven };
