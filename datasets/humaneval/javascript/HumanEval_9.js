function rollingMax(numbers) {
  const out = [];
  let best = null;
  for (const n of numbers) {
    best = best === null ? n : Math.max(best, n);
    out.push(best);
  }
  return out;
}

module.exports = { rollingMax };
