fn count_up_to(n: i64) -> Vec<i64> {
    (2..n.max(2)).filter(|&i| (2..i).take_while(|d| d * d <= i).all(|d| i % d != 0)).collect()
}
