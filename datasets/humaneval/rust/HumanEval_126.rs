use std::collections::HashMap;

fn is_sorted(lst: Vec<i64>) -> bool {
    let mut counts: HashMap<i64, i64> = HashMap::new();
    for x in &lst {
        *counts.entry(*x).or_insert(0) += 1;
    }
    counts.values().all(|&c| c <= 2) && lst.windows(2).all(|w| w[0] <= w[1])
}
