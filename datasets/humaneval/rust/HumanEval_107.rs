fn even_odd_palindrome(n: i64) -> (i64, i64) {
    let (mut even, mut odd) = (0, 0);
    for i in 1..=n {
        let s = i.to_string();
        if s.chars().eq(s.chars().rev()) {
            if i % 2 == 0 {
                even += 1;
            } else {
                odd += 1;
            }
        }
    }
    (even, odd)
}
