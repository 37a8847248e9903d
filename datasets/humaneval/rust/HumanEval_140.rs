fn fix_spaces(text: String) -> String {
    let mut out = String::new();
    let mut run = 0;
    let flush = |out: &mut String, run: usize| {
        if run > 2 {
            out.push('-');
        } else {
            out.extend(std::iter::repeat('_').take(run));
        }
    };
    for c in text.chars() {
        if c == ' ' {
            run += 1;
        } else {
            flush(&mut out, run);
            run = 0;
            out.push(c);
        }
    }
    flush(&mut out, run);
    out
}
