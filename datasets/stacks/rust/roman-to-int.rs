fn value(c: u8) -> u32 {
    match c {
        b'I' => 1,
        b'V' => 5,
        b'X' => 10,
        b'L' => 50,
        b'C' => 100,
        b'D' => 500,
        b'M' => 1000,
        _ => 0,
    }
}

pub fn roman_to_int(s: String) -> i64 {
    let b = s.as_bytes();
    let mut total: i64 = 0;
    for i in 0..b.len() {
        let v = value(b[i]) as i64;
        if i + 1 < b.len() && (value(b[i + 1]) as i64) > v {
            total -= v;
        } else {
            total += v;
        }
    }
    total
}
