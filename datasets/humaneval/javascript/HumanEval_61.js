function correctBracketing(brackets) {
  let depth = 0;
  for (const c of brackets) {
    depth += c === '(' ? 1 : -1;
    if (depth < 0) return false;
  }
  return depth === 0;
}

module.exports = { correctBracketing };
