#[allow(non_snake_case)]
fn is_bored(S: String) -> i64 {
    S.split(|c| c == '.' || c == '?' || c == '!')
        .enumerate()
        .map(|(i, s)| if i == 0 { s } else { s.trim_start() })
        .filter(|s| s.starts_with("I "))
        .count() as i64
}
