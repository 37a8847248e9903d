function decimalToBinary(decimal) {
  return 'db' + decimal.toString(2) + 'db';
}

module.exports = { decimalToBinary };
