fn max_element(l: Vec<i64>) -> i64 {
    *l.iter().max().unwrap()
}
