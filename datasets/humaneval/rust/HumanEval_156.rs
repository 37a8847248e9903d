fn int_to_mini_roman(mut number: i64) -> String {
    let table = [
        (1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
        (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"),
    ];
    let mut out = String::new();
    for (v, s) in table.iter() {
        while number >= *v {
            out.push_str(s);
            number -= v;
        }
    }
    out
}
