fn do_algebra(operator: Vec<String>, operand: Vec<i64>) -> i64 {
    // ** first (right to left), then * and // (left to right), then + and -.
    let mut vals = vec![*operand.last().unwrap()];
    let mut ops: Vec<String> = Vec::new();
    for i in (0..operator.len()).rev() {
        if operator[i] == "**" {
            vals[0] = operand[i].pow(vals[0] as u32);
        } else {
            vals.insert(0, operand[i]);
            ops.insert(0, operator[i].clone());
        }
    }
    let mut terms = vec![vals[0]];
    let mut signs: Vec<String> = Vec::new();
    for (i, op) in ops.iter().enumerate() {
        let v = vals[i + 1];
        let last = terms.len() - 1;
        match op.as_str() {
            "*" => terms[last] *= v,
            "//" => terms[last] = terms[last].div_euclid(v),
            _ => {
                terms.push(v);
                signs.push(op.clone());
            }
        }
    }
    let mut result = terms[0];
    for (i, s) in signs.iter().enumerate() {
        if s == "+" {
            result += terms[i + 1];
        } else {
            result -= terms[i + 1];
        }
    }
    result
}
