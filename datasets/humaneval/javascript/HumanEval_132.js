function isNested(string) {
  const opens = [];
  const closes = [];
  [...string].forEach((c, i) => (c === '[' ? opens : closes).push(i));
  closes.reverse();
  let count = 0;
  let j = 0;
  for (const i of opens) {
    if (j < closes.length && i < closes[j]) {
      count += 1;
      j += 1;
    }
  }
  return count >= 2;
}

module.exports = { isNested };
