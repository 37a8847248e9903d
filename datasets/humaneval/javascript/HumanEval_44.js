function changeBase(x, base) {
  if (x === 0) return '0';
  let out = '';
  while (x > 0) {
    out = String(x % base) + out;
    x = Math.floor(x / base);
  }
  return out;
}

module.exports = { changeBase };
