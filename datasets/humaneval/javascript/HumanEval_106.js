function f(n) {
  const out = [];
  for (let i = 1; i <= n; i++) {
    if (i % 2 === 0) {
      let p = 1;
      for (let j = 1; j <= i; j++) p *= j;
      out.push(p);
    } else {
      out.push((i * (i + 1)) / 2);
    }
  }
  return out;
}

module.exports = { f };
