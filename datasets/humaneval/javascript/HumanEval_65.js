function circularShift(x, shift) {
  const s = String(x);
  if (shift > s.length) return s.split('').reverse().join('');
  return s.slice(s.length - shift) + s.slice(0, s.length - shift);
}

module.exports = { circularShift };
