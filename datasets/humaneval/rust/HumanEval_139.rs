fn special_factorial(n: i64) -> i64 {
    let (mut fact, mut special) = (1i64, 1i64);
    for i in 1..=n {
        fact *= i;
        special *= fact;
    }
    special
}
