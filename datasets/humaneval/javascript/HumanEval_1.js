function separateParenGroups(parenString) {
  const groups = [];
  let current = '';
  let depth = 0;
  for (const c of parenString) {
    if (c === '(') {
      depth += 1;
      current += c;
    } else if (c === ')') {
      depth -= 1;
      current += c;
      if (depth === 0) {
        groups.push(current);
        current = '';
      }
    }
  }
  return groups;
}

module.exports = { separateParenGroups };
