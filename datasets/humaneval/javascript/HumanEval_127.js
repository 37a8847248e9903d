function intersection(interval1, interval2) {
  const lo = Math.max(interval1[0], interval2[0]);
  const hi = Math.min(interval1[1], interval2[1]);
  const len = hi - lo;
  if (len < 2) return 'NO';
  for (let d = 2; d * d <= len; d++) if (len % d === 0) return 'NO';
  return 'YES';
}

module.exports = { intersection };
