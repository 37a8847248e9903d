fn sum_squares(lst: Vec<i64>) -> i64 {
    lst.iter()
        .enumerate()
        .map(|(i, &x)| if i % 3 == 0 { x * x } else if i % 4 == 0 { x * x * x } else { x })
        .sum()
}
