function maxElement(l) {
  return l.reduce((a, b) => (b > a ? b : a));
}

module.exports = { maxElement };
