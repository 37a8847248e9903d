function intToMiniRoman(number) {
  const table = [
    [1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'],
    [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i'],
  ];
  let out = '';
  for (const [v, s] of table) {
    while (number >= v) {
      out += s;
      number -= v;
    }
  }
  return out;
}

module.exports = { intToMiniRoman };
