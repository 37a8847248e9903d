fn monotonic(l: Vec<i64>) -> bool {
    l.windows(2).all(|w| w[0] <= w[1]) || l.windows(2).all(|w| w[0] >= w[1])
}
