fn make_a_pile(n: i64) -> Vec<i64> {
    (0..n).map(|i| n + 2 * i).collect()
}
