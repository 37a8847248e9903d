function isEqualToSumEven(n) {
  return n % 2 === 0 && n >= 8;
}

module.exports = { isEqualToSumEven };
