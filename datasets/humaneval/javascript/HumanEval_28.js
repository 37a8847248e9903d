function concatenate(strings) {
  return strings.join('');
}

module.exports = { concatenate };
