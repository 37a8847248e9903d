function maxFill(grid, capacity) {
  let total = 0;
  for (const row of grid) {
    const water = row.reduce((a, b) => a + b, 0);
    total += Math.ceil(water / capacity);
  }
  return total;
}

module.exports = { maxFill };
