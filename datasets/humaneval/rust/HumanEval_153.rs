#[allow(non_snake_case)]
fn Strongest_Extension(class_name: String, extensions: Vec<String>) -> String {
    let strength = |e: &String| {
        e.chars().filter(|c| c.is_ascii_uppercase()).count() as i64
            - e.chars().filter(|c| c.is_ascii_lowercase()).count() as i64
    };
    let mut best = &extensions[0];
    for e in &extensions {
        if strength(e) > strength(best) {
            best = e;
        }
    }
    format!("{}.{}", class_name, best)
}
