function getPositive(l) {
  return l.filter((x) => x > 0);
}

module.exports = { getPositive };
