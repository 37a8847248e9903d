function digits(n) {
  let product = 1;
  let any = false;
  for (const d of String(n)) {
    const v = Number(d);
    if (v % 2 === 1) {
      product *= v;
      any = true;
    }
  }
  return any ? product : 0;
}

module.exports = { digits };
