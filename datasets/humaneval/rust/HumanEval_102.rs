fn choose_num(x: i64, y: i64) -> i64 {
    if x > y {
        return -1;
    }
    if y % 2 == 0 {
        return y;
    }
    if x == y {
        return -1;
    }
    y - 1
}
