function strlen(string) {
  return string.length;
}

module.exports = { strlen };
