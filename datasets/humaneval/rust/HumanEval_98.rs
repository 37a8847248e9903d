fn count_upper(s: String) -> i64 {
    s.chars().step_by(2).filter(|c| "AEIOU".contains(*c)).count() as i64
}
