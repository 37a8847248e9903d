fn sort_array(array: Vec<i64>) -> Vec<i64> {
    let mut out = array.clone();
    if out.is_empty() {
        return out;
    }
    out.sort();
    if (array[0] + array[array.len() - 1]) % 2 == 0 {
        out.reverse();
    }
    out
}
