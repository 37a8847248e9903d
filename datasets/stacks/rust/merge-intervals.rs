pub fn merge_intervals(intervals: Vec<(i64, i64)>) -> Vec<(i64, i64)> {
    let mut sorted = intervals;
    sorted.sort();
    let mut out: Vec<(i64, i64)> = Vec::new();
    for (s, e) in sorted {
        match out.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}
