function uniqueDigits(x) {
  return x.filter((n) => [...String(n)].every((d) => Number(d) % 2 === 1)).sort((a, b) => a - b);
}

module.exports = { uniqueDigits };
