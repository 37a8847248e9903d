function rescaleToUnit(numbers) {
  const lo = Math.min(...numbers);
  const hi = Math.max(...numbers);
  return numbers.map((x) => (x - lo) / (hi - lo));
}

module.exports = { rescaleToUnit };
