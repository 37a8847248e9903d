function sameChars(s0, s1) {
  const a = new Set(s0);
  const b = new Set(s1);
  if (a.size !== b.size) return false;
  for (const c of a) if (!b.has(c)) return false;
  return true;
}

module.exports = { sameChars };
