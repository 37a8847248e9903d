function sortedListSum(lst) {
  return lst
    .filter((s) => s.length % 2 === 0)
    .sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
}

module.exports = { sortedListSum };
