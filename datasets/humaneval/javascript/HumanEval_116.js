function sortArray(arr) {
  const ones = (n) => n.toString(2).split('').filter((d) => d === '1').length;
  return [...arr].sort((a, b) => a - b).sort((a, b) => ones(a) - ones(b));
}

module.exports = { sortArray };
