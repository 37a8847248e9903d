fn file_name_check(file_name: String) -> String {
    let parts: Vec<&str> = file_name.split('.').collect();
    let no = String::from("No");
    if parts.len() != 2 || !["txt", "exe", "dll"].contains(&parts[1]) {
        return no;
    }
    let name = parts[0];
    match name.chars().next() {
        Some(c) if c.is_ascii_alphabetic() => {}
        _ => return no,
    }
    if name.chars().filter(|c| c.is_ascii_digit()).count() > 3 {
        return no;
    }
    String::from("Yes")
}
