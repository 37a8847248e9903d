function nextSmallest(lst) {
  const s = Array.from(new Set(lst)).sort((a, b) => a - b);
  return s.length < 2 ? null : s[1];
}

module.exports = { nextSmallest };
