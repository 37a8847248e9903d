function encrypt(s) {
  const abc = 'abcdefghijklmnopqrstuvwxyz';
  let out = '';
  for (const c of s) {
    const i = abc.indexOf(c);
    out += i >= 0 ? abc[(i + 4) % 26] : c;
  }
  return out;
}

module.exports = { encrypt };
