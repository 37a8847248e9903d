function vowelsCount(s) {
  let n = 0;
  for (const c of s) if ('aeiouAEIOU'.includes(c)) n += 1;
  if (s.length > 0 && (s[s.length - 1] === 'y' || s[s.length - 1] === 'Y')) n += 1;
  return n;
}

module.exports = { vowelsCount };
