fn sort_third(l: Vec<i64>) -> Vec<i64> {
    let mut thirds: Vec<i64> = l.iter().step_by(3).cloned().collect();
    thirds.sort();
    l.iter().enumerate().map(|(i, &x)| if i % 3 == 0 { thirds[i / 3] } else { x }).collect()
}
