pub fn run_length_encode(s: String) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let mut j = i;
        while j < chars.len() && chars[j] == chars[i] {
            j += 1;
        }
        out.push(chars[i]);
        out.push_str(&(j - i).to_string());
        i = j;
    }
    out
}
