pub fn caesar(text: String, shift: i64) -> String {
    let k = shift.rem_euclid(26) as u8;
    text.chars()
        .map(|c| {
            if c.is_ascii_lowercase() {
                ((c as u8 - b'a' + k) % 26 + b'a') as char
            } else if c.is_ascii_uppercase() {
                ((c as u8 - b'A' + k) % 26 + b'A') as char
            } else {
                c
            }
        })
        .collect()
}
