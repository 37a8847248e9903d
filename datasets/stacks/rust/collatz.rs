pub fn collatz_steps(n: i64) -> Option<i64> {
    if n < 1 {
        return None;
    }
    let (mut n, mut steps) = (n, 0i64);
    while n != 1 {
        n = if n % 2 == 0 { n / 2 } else { 3 * n + 1 };
        steps += 1;
    }
    Some(steps)
}
