pub fn count_islands(grid: Vec<String>) -> i64 {
    let rows = grid.len();
    if rows == 0 {
        return 0;
    }
    let cells: Vec<&[u8]> = grid.iter().map(|r| r.as_bytes()).collect();
    let cols = cells[0].len();
    let mut seen = vec![false; rows * cols];
    let mut count = 0;
    for r in 0..rows {
        for c in 0..cols {
            if cells[r][c] != b'1' || seen[r * cols + c] {
                continue;
            }
            count += 1;
            seen[r * cols + c] = true;
            let mut stack = vec![(r, c)];
            while let Some((y, x)) = stack.pop() {
                let mut next = Vec::new();
                if y > 0 { next.push((y - 1, x)); }
                if y + 1 < rows { next.push((y + 1, x)); }
                if x > 0 { next.push((y, x - 1)); }
                if x + 1 < cols { next.push((y, x + 1)); }
                for (ny, nx) in next {
                    if cells[ny][nx] == b'1' && !seen[ny * cols + nx] {
                        seen[ny * cols + nx] = true;
                        stack.push((ny, nx));
                    }
                }
            }
        }
    }
    count
}
