fn words_string(s: String) -> Vec<String> {
    s.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(String::from)
        .collect()
}
