function howManyTimes(string, substring) {
  let count = 0;
  for (let i = 0; i + substring.length <= string.length; i++) {
    if (string.slice(i, i + substring.length) === substring) count += 1;
  }
  return count;
}

module.exports = { howManyTimes };
