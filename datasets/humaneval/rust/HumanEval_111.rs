use std::collections::HashMap;

fn histogram(test: String) -> HashMap<String, i64> {
    let mut counts: HashMap<String, i64> = HashMap::new();
    for w in test.split_whitespace() {
        *counts.entry(w.to_string()).or_insert(0) += 1;
    }
    let best = counts.values().cloned().max().unwrap_or(0);
    counts.into_iter().filter(|(_, v)| *v == best).collect()
}
