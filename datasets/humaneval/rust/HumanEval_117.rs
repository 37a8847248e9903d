fn select_words(s: String, n: i64) -> Vec<String> {
    s.split_whitespace()
        .filter(|w| {
            w.chars()
                .filter(|c| c.is_alphabetic() && !"aeiouAEIOU".contains(*c))
                .count() as i64
                == n
        })
        .map(String::from)
        .collect()
}
