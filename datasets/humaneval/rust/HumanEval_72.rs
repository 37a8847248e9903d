fn will_it_fly(q: Vec<i64>, w: i64) -> bool {
    q.iter().sum::<i64>() <= w && q.iter().eq(q.iter().rev())
}
