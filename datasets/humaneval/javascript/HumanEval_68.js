function pluck(arr) {
  let best = null;
  arr.forEach((x, i) => {
    if (x % 2 === 0 && (best === null || x < best[0])) best = [x, i];
  });
  return best === null ? [] : best;
}

module.exports = { pluck };
