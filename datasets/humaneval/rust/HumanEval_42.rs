fn incr_list(l: Vec<i64>) -> Vec<i64> {
    l.into_iter().map(|x| x + 1).collect()
}
