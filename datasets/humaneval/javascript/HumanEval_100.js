function makeAPile(n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(n + 2 * i);
  return out;
}

module.exports = { makeAPile };
