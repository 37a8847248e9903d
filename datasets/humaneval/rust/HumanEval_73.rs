fn smallest_change(arr: Vec<i64>) -> i64 {
    let n = arr.len();
    (0..n / 2).filter(|&i| arr[i] != arr[n - 1 - i]).count() as i64
}
