pub fn longest_common_prefix(words: Vec<String>) -> String {
    let first = match words.first() {
        Some(w) => w,
        None => return String::new(),
    };
    let mut len = first.chars().count();
    for w in &words[1..] {
        len = first.chars().zip(w.chars()).take(len).take_while(|(a, b)| a == b).count();
    }
    first.chars().take(len).collect()
}
