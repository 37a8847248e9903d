fn add(x: i64, y: i64) -> i64 {
    x + y
}
