function filterBySubstring(strings, substring) {
  return strings.filter((s) => s.includes(substring));
}

module.exports = { filterBySubstring };
