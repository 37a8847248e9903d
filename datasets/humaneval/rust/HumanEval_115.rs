fn max_fill(grid: Vec<Vec<i64>>, capacity: i64) -> i64 {
    grid.iter().map(|row| (row.iter().sum::<i64>() + capacity - 1) / capacity).sum()
}
