fn add_elements(arr: Vec<i64>, k: i64) -> i64 {
    arr.iter().take(k as usize).filter(|x| x.to_string().len() <= 2).sum()
}
