use std::collections::HashMap;

pub fn top_words(text: String, k: i64) -> Vec<String> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for w in text
        .to_ascii_lowercase()
        .split(|c: char| !c.is_ascii_lowercase())
        .filter(|w| !w.is_empty())
    {
        *counts.entry(w.to_string()).or_insert(0) += 1;
    }
    let mut items: Vec<(String, usize)> = counts.into_iter().collect();
    items.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    items.into_iter().take(k.max(0) as usize).map(|(w, _)| w).collect()
}
