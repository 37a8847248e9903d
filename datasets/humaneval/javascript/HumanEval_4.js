function meanAbsoluteDeviation(numbers) {
  const mean = numbers.reduce((a, b) => a + b, 0) / numbers.length;
  return numbers.reduce((a, x) => a + Math.abs(x - mean), 0) / numbers.length;
}

module.exports = { meanAbsoluteDeviation };
