fn fizz_buzz(n: i64) -> i64 {
    (0..n)
        .filter(|i| i % 11 == 0 || i % 13 == 0)
        .map(|i| i.to_string().chars().filter(|&c| c == '7').count() as i64)
        .sum()
}
