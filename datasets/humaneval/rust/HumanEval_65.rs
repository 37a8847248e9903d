fn circular_shift(x: i64, shift: i64) -> String {
    let s = x.to_string();
    let n = s.len();
    let shift = shift as usize;
    if shift > n {
        return s.chars().rev().collect();
    }
    format!("{}{}", &s[n - shift..], &s[..n - shift])
}
