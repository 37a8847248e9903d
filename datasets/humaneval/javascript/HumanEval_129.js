function minPath(grid, k) {
  const n = grid.length;
  let best = n * n + 1;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (grid[i][j] !== 1) continue;
      const around = [];
      if (i > 0) around.push(grid[i - 1][j]);
      if (j > 0) around.push(grid[i][j - 1]);
      if (i < n - 1) around.push(grid[i + 1][j]);
      if (j < n - 1) around.push(grid[i][j + 1]);
      best = Math.min(...around);
    }
  }
  const out = [];
  for (let i = 0; i < k; i++) out.push(i % 2 === 0 ? 1 : best);
  return out;
}

module.exports = { minPath };
