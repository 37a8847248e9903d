fn fib4(n: i64) -> i64 {
    let mut f = vec![0i64, 0, 2, 0];
    for i in 4..=n as usize {
        let next = f[i - 1] + f[i - 2] + f[i - 3] + f[i - 4];
        f.push(next);
    }
    f[n as usize]
}
