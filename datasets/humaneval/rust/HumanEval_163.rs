fn generate_integers(a: i64, b: i64) -> Vec<i64> {
    let lo = a.min(b).max(2);
    let hi = a.max(b).min(8);
    (lo..=hi).filter(|i| i % 2 == 0).collect()
}
