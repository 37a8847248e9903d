fn make_palindrome(string: String) -> String {
    let chars: Vec<char> = string.chars().collect();
    let is_pal = |s: &[char]| s.iter().eq(s.iter().rev());
    if chars.is_empty() {
        return String::new();
    }
    let mut start = 0;
    while !is_pal(&chars[start..]) {
        start += 1;
    }
    let mut out = string.clone();
    out.extend(chars[..start].iter().rev());
    out
}
