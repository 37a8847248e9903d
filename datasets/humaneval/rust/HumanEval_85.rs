fn add(lst: Vec<i64>) -> i64 {
    lst.iter().skip(1).step_by(2).filter(|&&x| x % 2 == 0).sum()
}
