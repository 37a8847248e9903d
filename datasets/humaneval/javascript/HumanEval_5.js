function intersperse(numbers, delimeter) {
  const out = [];
  numbers.forEach((n, i) => {
    if (i > 0) out.push(delimeter);
    out.push(n);
  });
  return out;
}

module.exports = { intersperse };
