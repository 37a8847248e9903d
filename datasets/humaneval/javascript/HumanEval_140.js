function fixSpaces(text) {
  return text.replace(/ {3,}/g, '-').replace(/ /g, '_');
}

module.exports = { fixSpaces };
