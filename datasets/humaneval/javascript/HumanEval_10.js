function makePalindrome(string) {
  const isPalindrome = (s) => s === s.split('').reverse().join('');
  if (string.length === 0) return '';
  let start = 0;
  while (!isPalindrome(string.slice(start))) start += 1;
  return string + string.slice(0, start).split('').reverse().join('');
}

module.exports = { makePalindrome };
