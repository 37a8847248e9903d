pub fn is_palindrome(s: String) -> bool {
    let kept: Vec<u8> = s
        .bytes()
        .filter(|b| b.is_ascii_alphanumeric())
        .map(|b| b.to_ascii_lowercase())
        .collect();
    kept.iter().eq(kept.iter().rev())
}
