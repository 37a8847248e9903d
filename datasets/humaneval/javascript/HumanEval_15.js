function stringSequence(n) {
  const parts = [];
  for (let i = 0; i <= n; i++) parts.push(String(i));
  return parts.join(' ');
}

module.exports = { stringSequence };
