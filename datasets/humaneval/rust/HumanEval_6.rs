fn parse_nested_parens(paren_string: String) -> Vec<i64> {
    paren_string
        .split_whitespace()
        .map(|group| {
            let (mut depth, mut best) = (0i64, 0i64);
            for c in group.chars() {
                if c == '(' {
                    depth += 1;
                    best = best.max(depth);
                } else if c == ')' {
                    depth -= 1;
                }
            }
            best
        })
        .collect()
}
