fn how_many_times(string: String, substring: String) -> i64 {
    let s: Vec<char> = string.chars().collect();
    let sub: Vec<char> = substring.chars().collect();
    if sub.len() > s.len() {
        return 0;
    }
    (0..=s.len() - sub.len()).filter(|&i| s[i..i + sub.len()] == sub[..]).count() as i64
}
