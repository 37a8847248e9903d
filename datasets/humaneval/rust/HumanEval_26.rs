use std::collections::HashMap;

fn remove_duplicates(numbers: Vec<i64>) -> Vec<i64> {
    let mut counts: HashMap<i64, i64> = HashMap::new();
    for n in &numbers {
        *counts.entry(*n).or_insert(0) += 1;
    }
    numbers.into_iter().filter(|n| counts[n] == 1).collect()
}
