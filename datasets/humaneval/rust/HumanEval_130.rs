fn tri(n: i64) -> Vec<f64> {
    if n == 0 {
        return vec![1.0];
    }
    let mut out = vec![1.0, 3.0];
    for i in 2..=n as usize {
        if i % 2 == 0 {
            out.push(i as f64 / 2.0 + 1.0);
        } else {
            let next = out[i - 1] + out[i - 2] + (i as f64 + 3.0) / 2.0;
            out.push(next);
        }
    }
    out
}
