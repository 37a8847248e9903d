fn eat(number: i64, need: i64, remaining: i64) -> Vec<i64> {
    if need <= remaining {
        vec![number + need, remaining - need]
    } else {
        vec![number + remaining, 0]
    }
}
