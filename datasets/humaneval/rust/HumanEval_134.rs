fn check_if_last_char_is_a_letter(txt: String) -> bool {
    let last = txt.split(' ').last().unwrap_or("");
    let chars: Vec<char> = last.chars().collect();
    chars.len() == 1 && chars[0].is_ascii_alphabetic()
}
