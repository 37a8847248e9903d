fn solve(s: String) -> String {
    if !s.chars().any(|c| c.is_alphabetic()) {
        return s.chars().rev().collect();
    }
    s.chars()
        .map(|c| if c.is_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
        .collect()
}
