function solve(s) {
  if (!/[a-zA-Z]/.test(s)) return [...s].reverse().join('');
  return [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}

module.exports = { solve };
