fn mean_absolute_deviation(numbers: Vec<f64>) -> f64 {
    let n = numbers.len() as f64;
    let mean = numbers.iter().sum::<f64>() / n;
    numbers.iter().map(|x| (x - mean).abs()).sum::<f64>() / n
}
