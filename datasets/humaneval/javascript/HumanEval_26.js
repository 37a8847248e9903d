function removeDuplicates(numbers) {
  const counts = new Map();
  for (const n of numbers) counts.set(n, (counts.get(n) || 0) + 1);
  return numbers.filter((n) => counts.get(n) === 1);
}

module.exports = { removeDuplicates };
