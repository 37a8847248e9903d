fn triangle_area(a: i64, b: i64, c: i64) -> f64 {
    if a + b <= c || a + c <= b || b + c <= a {
        return -1.0;
    }
    let (a, b, c) = (a as f64, b as f64, c as f64);
    let p = (a + b + c) / 2.0;
    let area = (p * (p - a) * (p - b) * (p - c)).sqrt();
    (area * 100.0).round() / 100.0
}
