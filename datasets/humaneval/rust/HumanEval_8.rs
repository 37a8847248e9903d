fn sum_product(numbers: Vec<i64>) -> (i64, i64) {
    (numbers.iter().sum(), numbers.iter().product())
}
