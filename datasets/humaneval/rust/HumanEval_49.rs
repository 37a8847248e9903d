fn modp(n: i64, p: i64) -> i64 {
    let mut ret = 1;
    for _ in 0..n {
        ret = (2 * ret) % p;
    }
    ret
}
