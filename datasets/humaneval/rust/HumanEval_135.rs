fn can_arrange(arr: Vec<i64>) -> i64 {
    let mut ind = -1;
    for i in 1..arr.len() {
        if arr[i] < arr[i - 1] {
            ind = i as i64;
        }
    }
    ind
}
