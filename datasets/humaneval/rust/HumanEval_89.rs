fn encrypt(s: String) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_lowercase() {
                (((c as u8 - b'a' + 4) % 26) + b'a') as char
            } else {
                c
            }
        })
        .collect()
}
