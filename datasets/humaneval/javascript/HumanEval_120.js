function maximum(arr, k) {
  if (k === 0) return [];
  return [...arr].sort((a, b) => a - b).slice(arr.length - k);
}

module.exports = { maximum };
