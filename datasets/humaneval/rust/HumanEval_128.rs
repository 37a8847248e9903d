fn prod_signs(arr: Vec<i64>) -> Option<i64> {
    if arr.is_empty() {
        return None;
    }
    let sign: i64 = if arr.contains(&0) {
        0
    } else if arr.iter().filter(|&&x| x < 0).count() % 2 == 1 {
        -1
    } else {
        1
    };
    Some(sign * arr.iter().map(|x| x.abs()).sum::<i64>())
}
