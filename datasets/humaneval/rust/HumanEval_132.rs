fn is_nested(string: String) -> bool {
    let mut opens = Vec::new();
    let mut closes = Vec::new();
    for (i, c) in string.chars().enumerate() {
        if c == '[' {
            opens.push(i);
        } else {
            closes.push(i);
        }
    }
    closes.reverse();
    let mut count = 0;
    let mut j = 0;
    for i in opens {
        if j < closes.len() && i < closes[j] {
            count += 1;
            j += 1;
        }
    }
    count >= 2
}
