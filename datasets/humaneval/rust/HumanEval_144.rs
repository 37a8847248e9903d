fn simplify(x: String, n: String) -> bool {
    let parse = |s: &String| {
        let p: Vec<i64> = s.split('/').map(|v| v.parse().unwrap()).collect();
        (p[0], p[1])
    };
    let (a, b) = parse(&x);
    let (c, d) = parse(&n);
    (a * c) % (b * d) == 0
}
