fn bf(planet1: String, planet2: String) -> Vec<String> {
    let names = ["Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn", "Uranus", "Neptune"];
    let i = names.iter().position(|&n| n == planet1);
    let j = names.iter().position(|&n| n == planet2);
    match (i, j) {
        (Some(i), Some(j)) if i != j => {
            let (lo, hi) = if i < j { (i, j) } else { (j, i) };
            names[lo + 1..hi].iter().map(|s| s.to_string()).collect()
        }
        _ => vec![],
    }
}
