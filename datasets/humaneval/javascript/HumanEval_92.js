function anyInt(x, y, z) {
  if (![x, y, z].every(Number.isInteger)) return false;
  return x + y === z || x + z === y || y + z === x;
}

module.exports = { anyInt };
