use std::collections::HashMap;

pub fn group_anagrams(words: Vec<String>) -> Vec<Vec<String>> {
    let mut index: HashMap<Vec<char>, usize> = HashMap::new();
    let mut out: Vec<Vec<String>> = Vec::new();
    for w in &words {
        let mut key: Vec<char> = w.chars().collect();
        key.sort_unstable();
        let i = *index.entry(key).or_insert_with(|| {
            out.push(Vec::new());
            out.len() - 1
        });
        out[i].push(w.to_string());
    }
    out
}
