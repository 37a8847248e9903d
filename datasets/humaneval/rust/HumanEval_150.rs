fn x_or_y(n: i64, x: i64, y: i64) -> i64 {
    let prime = n >= 2 && (2..n).take_while(|d| d * d <= n).all(|d| n % d != 0);
    if prime {
        x
    } else {
        y
    }
}
