fn filter_by_prefix(strings: Vec<String>, prefix: String) -> Vec<String> {
    strings.into_iter().filter(|s| s.starts_with(prefix.as_str())).collect()
}
