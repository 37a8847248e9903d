fn reverse_delete(s: String, c: String) -> (String, bool) {
    let kept: String = s.chars().filter(|ch| !c.contains(*ch)).collect();
    let pal = kept.chars().eq(kept.chars().rev());
    (kept, pal)
}
