function sortArray(array) {
  if (array.length === 0) return [];
  const desc = (array[0] + array[array.length - 1]) % 2 === 0;
  return [...array].sort((a, b) => (desc ? b - a : a - b));
}

module.exports = { sortArray };
