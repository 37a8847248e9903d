fn rolling_max(numbers: Vec<i64>) -> Vec<i64> {
    let mut out: Vec<i64> = Vec::new();
    for n in numbers {
        let next = match out.last() {
            Some(&m) if m > n => m,
            _ => n,
        };
        out.push(next);
    }
    out
}
