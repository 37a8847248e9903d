fn triangle_area(a: i64, h: i64) -> f64 {
    a as f64 * h as f64 / 2.0
}
