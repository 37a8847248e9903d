fn move_one_ball(arr: Vec<i64>) -> bool {
    if arr.is_empty() {
        return true;
    }
    let mut sorted = arr.clone();
    sorted.sort();
    let n = arr.len();
    (0..n).any(|shift| (0..n).all(|i| arr[(i + shift) % n] == sorted[i]))
}
