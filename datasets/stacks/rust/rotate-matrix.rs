pub fn rotate(m: Vec<Vec<i64>>) -> Vec<Vec<i64>> {
    if m.is_empty() {
        return Vec::new();
    }
    (0..m[0].len())
        .map(|c| (0..m.len()).rev().map(|r| m[r][c]).collect())
        .collect()
}
