function countDistinctCharacters(string) {
  return new Set(string.toLowerCase()).size;
}

module.exports = { countDistinctCharacters };
