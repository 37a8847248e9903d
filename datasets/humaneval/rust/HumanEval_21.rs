fn rescale_to_unit(numbers: Vec<f64>) -> Vec<f64> {
    let lo = numbers.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = numbers.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    numbers.iter().map(|x| (x - lo) / (hi - lo)).collect()
}
