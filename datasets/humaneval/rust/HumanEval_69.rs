use std::collections::HashMap;

fn search(lst: Vec<i64>) -> i64 {
    let mut counts: HashMap<i64, i64> = HashMap::new();
    for x in &lst {
        *counts.entry(*x).or_insert(0) += 1;
    }
    counts.iter().filter(|(&x, &c)| x > 0 && c >= x).map(|(&x, _)| x).max().unwrap_or(-1)
}
