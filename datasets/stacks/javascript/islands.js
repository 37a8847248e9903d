function countIslands(grid) {
  const rows = grid.length;
  const cols = rows ? grid[0].length : 0;
  const seen = new Set();
  let count = 0;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (grid[r][c] !== '1' || seen.has(r * cols + c)) continue;
      count++;
      const stack = [[r, c]];
      seen.add(r * cols + c);
      while (stack.length) {
        const [y, x] = stack.pop();
        for (const [dy, dx] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
          const ny = y + dy;
          const nx = x + dx;
          if (ny < 0 || nx < 0 || ny >= rows || nx >= cols) continue;
          if (grid[ny][nx] !== '1' || seen.has(ny * cols + nx)) continue;
          seen.add(ny * cols + nx);
          stack.push([ny, nx]);
        }
      }
    }
  }
  return count;
}
module.exports = { countIslands };
