fn is_happy(s: String) -> bool {
    let c: Vec<char> = s.chars().collect();
    c.len() >= 3 && c.windows(3).all(|w| w[0] != w[1] && w[1] != w[2] && w[0] != w[2])
}
