fn largest_prime_factor(mut n: i64) -> i64 {
    let mut largest = 1;
    let mut d = 2;
    while d * d <= n {
        while n % d == 0 {
            largest = d;
            n /= d;
        }
        d += 1;
    }
    if n > 1 {
        largest.max(n)
    } else {
        largest
    }
}
