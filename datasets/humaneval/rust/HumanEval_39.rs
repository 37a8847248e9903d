fn prime_fib(mut n: i64) -> i64 {
    let is_prime = |p: i64| {
        if p < 2 {
            return false;
        }
        let mut d = 2;
        while d * d <= p {
            if p % d == 0 {
                return false;
            }
            d += 1;
        }
        true
    };
    let (mut a, mut b) = (0i64, 1i64);
    loop {
        let c = a + b;
        a = b;
        b = c;
        if is_prime(b) {
            n -= 1;
            if n == 0 {
                return b;
            }
        }
    }
}
