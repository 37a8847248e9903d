fn get_closest_vowel(word: String) -> String {
    let c: Vec<char> = word.chars().collect();
    let vowel = |ch: char| "aeiouAEIOU".contains(ch);
    if c.len() < 3 {
        return String::new();
    }
    for i in (1..c.len() - 1).rev() {
        if vowel(c[i]) && !vowel(c[i - 1]) && !vowel(c[i + 1]) {
            return c[i].to_string();
        }
    }
    String::new()
}
