function parseNestedParens(parenString) {
  return parenString.split(' ').filter((g) => g.length > 0).map((group) => {
    let depth = 0;
    let best = 0;
    for (const c of group) {
      if (c === '(') {
        depth += 1;
        best = Math.max(best, depth);
      } else if (c === ')') {
        depth -= 1;
      }
    }
    return best;
  });
}

module.exports = { parseNestedParens };
