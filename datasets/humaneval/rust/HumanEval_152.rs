fn compare(game: Vec<i64>, guess: Vec<i64>) -> Vec<i64> {
    game.iter().zip(guess.iter()).map(|(a, b)| (a - b).abs()).collect()
}
