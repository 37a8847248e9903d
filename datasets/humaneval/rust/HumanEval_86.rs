fn anti_shuffle(s: String) -> String {
    s.split(' ')
        .map(|w| {
            let mut c: Vec<char> = w.chars().collect();
            c.sort();
            c.into_iter().collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(" ")
}
