pub fn primes_up_to(n: i64) -> Vec<i64> {
    if n < 2 {
        return Vec::new();
    }
    let n = n as usize;
    let mut composite = vec![false; n + 1];
    let mut out = Vec::new();
    for i in 2..=n {
        if composite[i] {
            continue;
        }
        out.push(i as i64);
        let mut j = i * i;
        while j <= n {
            composite[j] = true;
            j += i;
        }
    }
    out
}
