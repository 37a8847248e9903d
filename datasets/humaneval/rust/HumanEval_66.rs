fn digitSum(s: String) -> i64 {
    s.chars().filter(|c| c.is_ascii_uppercase()).map(|c| c as i64).sum()
}
