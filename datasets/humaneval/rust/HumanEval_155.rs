fn even_odd_count(num: i64) -> (i64, i64) {
    let digits: Vec<u32> = num.abs().to_string().chars().filter_map(|c| c.to_digit(10)).collect();
    let even = digits.iter().filter(|d| *d % 2 == 0).count() as i64;
    (even, digits.len() as i64 - even)
}
