function filterByPrefix(strings, prefix) {
  return strings.filter((s) => s.startsWith(prefix));
}

module.exports = { filterByPrefix };
