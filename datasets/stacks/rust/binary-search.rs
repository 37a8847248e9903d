pub fn binary_search(sorted: Vec<i64>, target: i64) -> i64 {
    let (mut lo, mut hi) = (0usize, sorted.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if sorted[mid] < target {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if lo < sorted.len() && sorted[lo] == target {
        lo as i64
    } else {
        -1
    }
}
