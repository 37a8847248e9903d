function largestSmallestIntegers(lst) {
  const neg = lst.filter((x) => x < 0);
  const pos = lst.filter((x) => x > 0);
  return [neg.length ? Math.max(...neg) : null, pos.length ? Math.min(...pos) : null];
}

module.exports = { largestSmallestIntegers };
