#[allow(non_snake_case)]
fn minPath(grid: Vec<Vec<i64>>, k: i64) -> Vec<i64> {
    let n = grid.len();
    let mut best = (n * n + 1) as i64;
    for i in 0..n {
        for j in 0..n {
            if grid[i][j] != 1 {
                continue;
            }
            if i > 0 {
                best = best.min(grid[i - 1][j]);
            }
            if j > 0 {
                best = best.min(grid[i][j - 1]);
            }
            if i + 1 < n {
                best = best.min(grid[i + 1][j]);
            }
            if j + 1 < n {
                best = best.min(grid[i][j + 1]);
            }
        }
    }
    (0..k).map(|i| if i % 2 == 0 { 1 } else { best }).collect()
}
