fn fibfib(n: i64) -> i64 {
    let mut f = vec![0i64, 0, 1];
    for i in 3..=n as usize {
        let next = f[i - 1] + f[i - 2] + f[i - 3];
        f.push(next);
    }
    f[n as usize]
}
