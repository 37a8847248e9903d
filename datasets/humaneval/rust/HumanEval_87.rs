fn get_row(lst: Vec<Vec<i64>>, x: i64) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    for (i, row) in lst.iter().enumerate() {
        for j in (0..row.len()).rev() {
            if row[j] == x {
                out.push((i as i64, j as i64));
            }
        }
    }
    out
}
