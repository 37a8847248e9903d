fn unique(mut l: Vec<i64>) -> Vec<i64> {
    l.sort();
    l.dedup();
    l
}
