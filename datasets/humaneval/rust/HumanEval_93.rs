fn encode(message: String) -> String {
    message
        .chars()
        .map(|c| {
            let d = if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
            if "aeiouAEIOU".contains(d) {
                (d as u8 + 2) as char
            } else {
                d
            }
        })
        .collect()
}
