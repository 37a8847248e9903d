function search(lst) {
  const counts = new Map();
  for (const x of lst) counts.set(x, (counts.get(x) || 0) + 1);
  let ans = -1;
  for (const [x, c] of counts) if (x > 0 && c >= x && x > ans) ans = x;
  return ans;
}

module.exports = { search };
