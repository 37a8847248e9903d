fn closest_integer(value: String) -> i64 {
    let num: f64 = value.trim().parse().unwrap();
    if (num - num.trunc()).abs() == 0.5 {
        return if num > 0.0 { num.ceil() as i64 } else { num.floor() as i64 };
    }
    num.round() as i64
}
