fn sum_squares(lst: Vec<f64>) -> i64 {
    lst.iter().map(|x| {
        let c = x.ceil() as i64;
        c * c
    }).sum()
}
