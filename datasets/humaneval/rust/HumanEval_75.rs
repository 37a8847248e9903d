fn is_multiply_prime(a: i64) -> bool {
    let is_prime = |n: i64| n >= 2 && (2..n).take_while(|d| d * d <= n).all(|d| n % d != 0);
    for i in 2..=100 {
        for j in 2..=100 {
            for k in 2..=100 {
                if is_prime(i) && is_prime(j) && is_prime(k) && i * j * k == a {
                    return true;
                }
            }
        }
    }
    false
}
