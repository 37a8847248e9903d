fn digits(n: i64) -> i64 {
    let odd: Vec<i64> = n
        .to_string()
        .chars()
        .filter_map(|c| c.to_digit(10))
        .map(|d| d as i64)
        .filter(|d| d % 2 == 1)
        .collect();
    if odd.is_empty() {
        0
    } else {
        odd.iter().product()
    }
}
