fn median(mut l: Vec<i64>) -> f64 {
    l.sort();
    let n = l.len();
    if n % 2 == 1 {
        l[n / 2] as f64
    } else {
        (l[n / 2 - 1] + l[n / 2]) as f64 / 2.0
    }
}
