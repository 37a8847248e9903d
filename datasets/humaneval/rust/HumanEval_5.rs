fn intersperse(numbers: Vec<i64>, delimeter: i64) -> Vec<i64> {
    let mut out = Vec::new();
    for (i, n) in numbers.into_iter().enumerate() {
        if i > 0 {
            out.push(delimeter);
        }
        out.push(n);
    }
    out
}
