fn common(l1: Vec<i64>, l2: Vec<i64>) -> Vec<i64> {
    let mut out: Vec<i64> = l1.into_iter().filter(|x| l2.contains(x)).collect();
    out.sort();
    out.dedup();
    out
}
