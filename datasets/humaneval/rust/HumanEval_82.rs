fn prime_length(string: String) -> bool {
    let n = string.chars().count();
    n >= 2 && (2..n).take_while(|d| d * d <= n).all(|d| n % d != 0)
}
