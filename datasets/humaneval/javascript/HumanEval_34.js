function unique(l) {
  return Array.from(new Set(l)).sort((a, b) => a - b);
}

module.exports = { unique };
