fn derivative(xs: Vec<i64>) -> Vec<i64> {
    xs.iter().enumerate().skip(1).map(|(i, x)| x * i as i64).collect()
}
