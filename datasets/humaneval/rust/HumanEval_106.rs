fn f(n: i64) -> Vec<i64> {
    (1..=n)
        .map(|i| if i % 2 == 0 { (1..=i).product() } else { i * (i + 1) / 2 })
        .collect()
}
