function belowZero(operations) {
  let balance = 0;
  for (const op of operations) {
    balance += op;
    if (balance < 0) return true;
  }
  return false;
}

module.exports = { belowZero };
