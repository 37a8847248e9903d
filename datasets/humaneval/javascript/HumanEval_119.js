function matchParens(lst) {
  const ok = (s) => {
    let depth = 0;
    for (const c of s) {
      depth += c === '(' ? 1 : -1;
      if (depth < 0) return false;
    }
    return depth === 0;
  };
  return ok(lst[0] + lst[1]) || ok(lst[1] + lst[0]) ? 'Yes' : 'No';
}

module.exports = { matchParens };
