fn cycpattern_check(a: String, b: String) -> bool {
    let n = b.len();
    if n == 0 {
        return true;
    }
    (0..n).any(|i| a.contains(&format!("{}{}", &b[i..], &b[..i])))
}
