function stringXor(a, b) {
  let out = '';
  for (let i = 0; i < a.length; i++) out += a[i] === b[i] ? '0' : '1';
  return out;
}

module.exports = { stringXor };
