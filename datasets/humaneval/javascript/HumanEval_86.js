function antiShuffle(s) {
  return s
    .split(' ')
    .map((w) => w.split('').sort().join(''))
    .join(' ');
}

module.exports = { antiShuffle };
