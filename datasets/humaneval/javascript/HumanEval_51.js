function removeVowels(text) {
  return text.replace(/[aeiouAEIOU]/g, '');
}

module.exports = { removeVowels };
