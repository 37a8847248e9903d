fn sorted_list_sum(lst: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = lst.into_iter().filter(|s| s.len() % 2 == 0).collect();
    out.sort_by(|a, b| a.len().cmp(&b.len()).then(a.cmp(b)));
    out
}
