function findClosestElements(numbers) {
  let best = null;
  let pair = null;
  for (let i = 0; i < numbers.length; i++) {
    for (let j = 0; j < numbers.length; j++) {
      if (i === j) continue;
      const d = Math.abs(numbers[i] - numbers[j]);
      if (best === null || d < best) {
        best = d;
        pair = [Math.min(numbers[i], numbers[j]), Math.max(numbers[i], numbers[j])];
      }
    }
  }
  return pair;
}

module.exports = { findClosestElements };
