fn change_base(mut x: i64, base: i64) -> String {
    if x == 0 {
        return String::from("0");
    }
    let mut out = String::new();
    while x > 0 {
        out.insert_str(0, &(x % base).to_string());
        x /= base;
    }
    out
}
