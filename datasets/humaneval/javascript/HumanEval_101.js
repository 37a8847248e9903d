function wordsString(s) {
  return s.split(/[,\s]+/).filter((w) => w.length > 0);
}

module.exports = { wordsString };
