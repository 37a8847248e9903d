fn pairs_sum_to_zero(l: Vec<i64>) -> bool {
    for i in 0..l.len() {
        for j in i + 1..l.len() {
            if l[i] + l[j] == 0 {
                return true;
            }
        }
    }
    false
}
