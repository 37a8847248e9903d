fn strlen(string: String) -> i64 {
    string.chars().count() as i64
}
