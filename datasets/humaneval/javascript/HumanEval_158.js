function findMax(words) {
  let best = null;
  for (const w of words) {
    const n = new Set(w).size;
    if (best === null || n > best[0] || (n === best[0] && w < best[1])) best = [n, w];
  }
  return best[1];
}

module.exports = { findMax };
