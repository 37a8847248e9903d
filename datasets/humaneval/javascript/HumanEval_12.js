function longest(strings) {
  if (strings.length === 0) return null;
  let best = strings[0];
  for (const s of strings) if (s.length > best.length) best = s;
  return best;
}

module.exports = { longest };
