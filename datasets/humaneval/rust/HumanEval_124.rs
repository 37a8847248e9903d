fn valid_date(date: String) -> bool {
    let parts: Vec<&str> = date.trim().split('-').collect();
    if parts.len() != 3 || parts[0].len() != 2 || parts[1].len() != 2 || parts[2].len() != 4 {
        return false;
    }
    let nums: Vec<Option<i64>> = parts.iter().map(|p| p.parse::<i64>().ok()).collect();
    let (month, day) = match (nums[0], nums[1], nums[2]) {
        (Some(m), Some(d), Some(_)) => (m, d),
        _ => return false,
    };
    if !(1..=12).contains(&month) || day < 1 {
        return false;
    }
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => day <= 31,
        4 | 6 | 9 | 11 => day <= 30,
        _ => day <= 29,
    }
}
