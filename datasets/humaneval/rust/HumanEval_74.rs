fn total_match(lst1: Vec<String>, lst2: Vec<String>) -> Vec<String> {
    let total = |l: &Vec<String>| l.iter().map(|s| s.chars().count()).sum::<usize>();
    if total(&lst1) <= total(&lst2) {
        lst1
    } else {
        lst2
    }
}
