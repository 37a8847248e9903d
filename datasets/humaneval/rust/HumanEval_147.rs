fn get_max_triples(n: i64) -> i64 {
    let a: Vec<i64> = (1..=n).map(|i| i * i - i + 1).collect();
    let mut count = 0;
    for i in 0..a.len() {
        for j in i + 1..a.len() {
            for k in j + 1..a.len() {
                if (a[i] + a[j] + a[k]) % 3 == 0 {
                    count += 1;
                }
            }
        }
    }
    count
}
