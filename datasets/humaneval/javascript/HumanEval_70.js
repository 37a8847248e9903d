function strangeSortList(lst) {
  const s = [...lst].sort((a, b) => a - b);
  const out = [];
  let lo = 0;
  let hi = s.length - 1;
  let takeLow = true;
  while (lo <= hi) {
    out.push(takeLow ? s[lo++] : s[hi--]);
    takeLow = !takeLow;
  }
  return out;
}

module.exports = { strangeSortList };
