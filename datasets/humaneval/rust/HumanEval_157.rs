fn right_angle_triangle(a: i64, b: i64, c: i64) -> bool {
    a * a == b * b + c * c || b * b == a * a + c * c || c * c == a * a + b * b
}
