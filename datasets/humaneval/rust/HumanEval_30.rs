fn get_positive(l: Vec<i64>) -> Vec<i64> {
    l.into_iter().filter(|&x| x > 0).collect()
}
