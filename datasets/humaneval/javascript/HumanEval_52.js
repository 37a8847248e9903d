function belowThreshold(l, t) {
  return l.every((x) => x < t);
}

module.exports = { belowThreshold };
