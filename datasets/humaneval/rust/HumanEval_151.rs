fn double_the_difference(lst: Vec<f64>) -> i64 {
    lst.iter()
        .filter(|&&x| x > 0.0 && x.fract() == 0.0 && (x as i64) % 2 == 1)
        .map(|&x| (x as i64) * (x as i64))
        .sum()
}
