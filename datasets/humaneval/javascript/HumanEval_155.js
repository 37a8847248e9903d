function evenOddCount(num) {
  let even = 0;
  let odd = 0;
  for (const d of String(Math.abs(num))) {
    if (Number(d) % 2 === 0) even += 1;
    else odd += 1;
  }
  return [even, odd];
}

module.exports = { evenOddCount };
