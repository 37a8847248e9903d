fn skjkasdkd(lst: Vec<i64>) -> i64 {
    let is_prime = |n: i64| n >= 2 && (2..n).take_while(|d| d * d <= n).all(|d| n % d != 0);
    let best = lst.iter().cloned().filter(|&x| is_prime(x)).max().unwrap_or(0);
    best.to_string().chars().filter_map(|c| c.to_digit(10)).map(|d| d as i64).sum()
}
