fn by_length(arr: Vec<i64>) -> Vec<String> {
    let names = ["One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"];
    let mut keep: Vec<i64> = arr.into_iter().filter(|&x| (1..=9).contains(&x)).collect();
    keep.sort();
    keep.reverse();
    keep.into_iter().map(|x| names[(x - 1) as usize].to_string()).collect()
}
