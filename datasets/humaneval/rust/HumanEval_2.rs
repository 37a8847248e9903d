fn truncate_number(number: f64) -> f64 {
    number % 1.0
}
