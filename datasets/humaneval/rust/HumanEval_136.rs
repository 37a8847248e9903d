fn largest_smallest_integers(lst: Vec<i64>) -> (Option<i64>, Option<i64>) {
    (lst.iter().cloned().filter(|&x| x < 0).max(), lst.iter().cloned().filter(|&x| x > 0).min())
}
