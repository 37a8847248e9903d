function countUpper(s) {
  let n = 0;
  for (let i = 0; i < s.length; i += 2) if ('AEIOU'.includes(s[i])) n += 1;
  return n;
}

module.exports = { countUpper };
