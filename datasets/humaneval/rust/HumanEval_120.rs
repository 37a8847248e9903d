fn maximum(mut arr: Vec<i64>, k: i64) -> Vec<i64> {
    arr.sort();
    arr.split_off(arr.len() - k as usize)
}
