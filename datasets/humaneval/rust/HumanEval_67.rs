fn fruit_distribution(s: String, n: i64) -> i64 {
    n - s.split_whitespace().filter_map(|w| w.parse::<i64>().ok()).sum::<i64>()
}
