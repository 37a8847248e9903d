fn longest(strings: Vec<String>) -> Option<String> {
    let mut best: Option<String> = None;
    for s in strings {
        if best.as_ref().map_or(true, |b| s.len() > b.len()) {
            best = Some(s);
        }
    }
    best
}
