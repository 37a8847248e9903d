function solve(N) {
  let sum = 0;
  for (const c of String(N)) sum += Number(c);
  return sum.toString(2);
}

module.exports = { solve };
