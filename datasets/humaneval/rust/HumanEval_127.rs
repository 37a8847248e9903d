fn intersection(interval1: (i64, i64), interval2: (i64, i64)) -> String {
    let lo = interval1.0.max(interval2.0);
    let hi = interval1.1.min(interval2.1);
    let n = hi - lo;
    let prime = n >= 2 && (2..n).take_while(|d| d * d <= n).all(|d| n % d != 0);
    String::from(if prime { "YES" } else { "NO" })
}
