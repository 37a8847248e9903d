fn parse_music(music_string: String) -> Vec<i64> {
    music_string
        .split_whitespace()
        .filter_map(|note| match note {
            "o" => Some(4),
            "o|" => Some(2),
            ".|" => Some(1),
            _ => None,
        })
        .collect()
}
