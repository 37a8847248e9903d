fn sum_to_n(n: i64) -> i64 {
    n * (n + 1) / 2
}
