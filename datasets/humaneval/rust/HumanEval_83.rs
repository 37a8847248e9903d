fn starts_one_ends(n: i64) -> i64 {
    if n == 1 {
        return 1;
    }
    18 * 10i64.pow((n - 2) as u32)
}
