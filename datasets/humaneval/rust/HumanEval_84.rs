#[allow(non_snake_case)]
fn solve(N: i64) -> String {
    let sum: u32 = N.to_string().chars().filter_map(|c| c.to_digit(10)).sum();
    format!("{:b}", sum)
}
