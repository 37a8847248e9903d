function checkIfLastCharIsALetter(txt) {
  const parts = txt.split(' ');
  const last = parts[parts.length - 1];
  return last.length === 1 && /[a-zA-Z]/.test(last);
}

module.exports = { checkIfLastCharIsALetter };
