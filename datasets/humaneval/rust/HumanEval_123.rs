fn get_odd_collatz(mut n: i64) -> Vec<i64> {
    let mut out = if n % 2 == 1 { vec![n] } else { vec![] };
    while n > 1 {
        n = if n % 2 == 0 { n / 2 } else { 3 * n + 1 };
        if n % 2 == 1 {
            out.push(n);
        }
    }
    out.sort();
    out
}
