fn below_threshold(l: Vec<i64>, t: i64) -> bool {
    l.iter().all(|&x| x < t)
}
