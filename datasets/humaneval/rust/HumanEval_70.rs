fn strange_sort_list(mut lst: Vec<i64>) -> Vec<i64> {
    lst.sort();
    let mut out = Vec::new();
    let (mut lo, mut hi) = (0i64, lst.len() as i64 - 1);
    let mut low = true;
    while lo <= hi {
        if low {
            out.push(lst[lo as usize]);
            lo += 1;
        } else {
            out.push(lst[hi as usize]);
            hi -= 1;
        }
        low = !low;
    }
    out
}
