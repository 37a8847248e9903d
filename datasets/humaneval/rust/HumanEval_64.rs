fn vowels_count(s: String) -> i64 {
    let mut n = s.chars().filter(|c| "aeiouAEIOU".contains(*c)).count() as i64;
    if s.ends_with('y') || s.ends_with('Y') {
        n += 1;
    }
    n
}
