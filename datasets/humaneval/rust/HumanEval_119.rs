fn match_parens(lst: Vec<String>) -> String {
    let ok = |s: String| {
        let mut depth = 0;
        for c in s.chars() {
            depth += if c == '(' { 1 } else { -1 };
            if depth < 0 {
                return false;
            }
        }
        depth == 0
    };
    let a = format!("{}{}", lst[0], lst[1]);
    let b = format!("{}{}", lst[1], lst[0]);
    String::from(if ok(a) || ok(b) { "Yes" } else { "No" })
}
