const V = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };
function romanToInt(s) {
  let total = 0;
  for (let i = 0; i < s.length; i++) {
    const v = V[s[i]];
    if (i + 1 < s.length && V[s[i + 1]] > v) total -= v;
    else total += v;
  }
  return total;
}
module.exports = { romanToInt };
