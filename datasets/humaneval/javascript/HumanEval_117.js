function selectWords(s, n) {
  const consonants = (w) => [...w.toLowerCase()].filter((c) => /[a-z]/.test(c) && !'aeiou'.includes(c)).length;
  return s.split(' ').filter((w) => w.length > 0 && consonants(w) === n);
}

module.exports = { selectWords };
