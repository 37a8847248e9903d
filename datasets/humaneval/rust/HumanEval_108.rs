fn count_nums(arr: Vec<i64>) -> i64 {
    arr.iter()
        .filter(|&&n| {
            let mut digits: Vec<i64> =
                n.abs().to_string().chars().map(|c| c.to_digit(10).unwrap() as i64).collect();
            if n < 0 {
                digits[0] = -digits[0];
            }
            digits.iter().sum::<i64>() > 0
        })
        .count() as i64
}
