function longestCommonPrefix(words) {
  if (words.length === 0) return '';
  let prefix = words[0];
  for (const w of words.slice(1)) {
    let i = 0;
    while (i < prefix.length && i < w.length && prefix[i] === w[i]) i++;
    prefix = prefix.slice(0, i);
  }
  return prefix;
}
module.exports = { longestCommonPrefix };
