fn triples_sum_to_zero(l: Vec<i64>) -> bool {
    for i in 0..l.len() {
        for j in i + 1..l.len() {
            for k in j + 1..l.len() {
                if l[i] + l[j] + l[k] == 0 {
                    return true;
                }
            }
        }
    }
    false
}
