function isBored(S) {
  const sentences = S.split(/[.?!]\s*/);
  return sentences.filter((s) => s.slice(0, 2) === 'I ').length;
}

module.exports = { isBored };
