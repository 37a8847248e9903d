function allPrefixes(string) {
  const out = [];
  for (let i = 1; i <= string.length; i++) out.push(string.slice(0, i));
  return out;
}

module.exports = { allPrefixes };
