function isSorted(lst) {
  const counts = new Map();
  for (const x of lst) {
    counts.set(x, (counts.get(x) || 0) + 1);
    if (counts.get(x) > 2) return false;
  }
  for (let i = 1; i < lst.length; i++) if (lst[i - 1] > lst[i]) return false;
  return true;
}

module.exports = { isSorted };
