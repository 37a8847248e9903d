function truncateNumber(number) {
  return number % 1.0;
}

module.exports = { truncateNumber };
