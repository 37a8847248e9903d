fn next_smallest(mut lst: Vec<i64>) -> Option<i64> {
    lst.sort();
    lst.dedup();
    lst.get(1).cloned()
}
