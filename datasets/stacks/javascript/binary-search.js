function binarySearch(sorted, target) {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo] === target ? lo : -1;
}
module.exports = { binarySearch };
