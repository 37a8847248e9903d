fn correct_bracketing(brackets: String) -> bool {
    let mut depth = 0;
    for c in brackets.chars() {
        depth += if c == '(' { 1 } else { -1 };
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}
