fn string_xor(a: String, b: String) -> String {
    a.chars().zip(b.chars()).map(|(x, y)| if x == y { '0' } else { '1' }).collect()
}
