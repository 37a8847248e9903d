function startsOneEnds(n) {
  if (n === 1) return 1;
  return 18 * 10 ** (n - 2);
}

module.exports = { startsOneEnds };
