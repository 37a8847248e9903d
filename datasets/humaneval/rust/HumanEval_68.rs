fn pluck(arr: Vec<i64>) -> Vec<i64> {
    let mut best: Option<(i64, i64)> = None;
    for (i, &x) in arr.iter().enumerate() {
        if x % 2 == 0 && best.map_or(true, |(b, _)| x < b) {
            best = Some((x, i as i64));
        }
    }
    match best {
        Some((x, i)) => vec![x, i],
        None => vec![],
    }
}
