fn sort_array(arr: Vec<i64>) -> Vec<i64> {
    let mut out = arr.clone();
    out.sort();
    out.sort_by_key(|x| x.abs().count_ones());
    out
}
