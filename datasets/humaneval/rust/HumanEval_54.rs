use std::collections::HashSet;

fn same_chars(s0: String, s1: String) -> bool {
    s0.chars().collect::<HashSet<_>>() == s1.chars().collect::<HashSet<_>>()
}
