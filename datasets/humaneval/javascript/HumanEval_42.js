function incrList(l) {
  return l.map((x) => x + 1);
}

module.exports = { incrList };
