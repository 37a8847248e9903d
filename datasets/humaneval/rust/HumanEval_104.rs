fn unique_digits(x: Vec<i64>) -> Vec<i64> {
    let mut out: Vec<i64> = x
        .into_iter()
        .filter(|n| n.to_string().chars().all(|c| c.to_digit(10).map_or(false, |d| d % 2 == 1)))
        .collect();
    out.sort();
    out
}
