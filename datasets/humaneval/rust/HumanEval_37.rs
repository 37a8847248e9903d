fn sort_even(l: Vec<i64>) -> Vec<i64> {
    let mut evens: Vec<i64> = l.iter().step_by(2).cloned().collect();
    evens.sort();
    l.iter().enumerate().map(|(i, &x)| if i % 2 == 0 { evens[i / 2] } else { x }).collect()
}
