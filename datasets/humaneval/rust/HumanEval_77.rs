fn iscube(a: i64) -> bool {
    let a = a.abs();
    let r = (a as f64).cbrt().round() as i64;
    r * r * r == a
}
