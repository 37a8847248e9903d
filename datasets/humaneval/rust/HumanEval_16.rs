use std::collections::HashSet;

fn count_distinct_characters(string: String) -> i64 {
    string.to_lowercase().chars().collect::<HashSet<char>>().len() as i64
}
