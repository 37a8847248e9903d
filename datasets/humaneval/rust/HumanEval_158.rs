use std::collections::HashSet;

fn find_max(words: Vec<String>) -> String {
    let mut best: Option<(usize, String)> = None;
    for w in words {
        let n = w.chars().collect::<HashSet<_>>().len();
        let better = match &best {
            None => true,
            Some((bn, bw)) => n > *bn || (n == *bn && w < *bw),
        };
        if better {
            best = Some((n, w));
        }
    }
    best.map(|(_, w)| w).unwrap_or_default()
}
