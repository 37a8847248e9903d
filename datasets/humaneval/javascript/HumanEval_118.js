function getClosestVowel(word) {
  const vowels = 'aeiouAEIOU';
  for (let i = word.length - 2; i >= 1; i--) {
    if (vowels.includes(word[i]) && !vowels.includes(word[i - 1]) && !vowels.includes(word[i + 1])) {
      return word[i];
    }
  }
  return '';
}

module.exports = { getClosestVowel };
