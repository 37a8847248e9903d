function countUpTo(n) {
  const out = [];
  for (let i = 2; i < n; i++) {
    let prime = true;
    for (let d = 2; d * d <= i; d++) {
      if (i % d === 0) {
        prime = false;
        break;
      }
    }
    if (prime) out.push(i);
  }
  return out;
}

module.exports = { countUpTo };
