fn is_palindrome(text: String) -> bool {
    text.chars().eq(text.chars().rev())
}
