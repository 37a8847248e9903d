fn car_race_collision(n: i64) -> i64 {
    n * n
}
