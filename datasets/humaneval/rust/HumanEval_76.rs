fn is_simple_power(x: i64, n: i64) -> bool {
    if n == 1 {
        return x == 1;
    }
    let mut power = 1;
    while power < x {
        power *= n;
    }
    power == x
}
