#[allow(non_snake_case)]
fn specialFilter(nums: Vec<i64>) -> i64 {
    let odd = |c: char| "13579".contains(c);
    nums.iter()
        .filter(|&&n| {
            let s = n.to_string();
            n > 10 && odd(s.chars().next().unwrap()) && odd(s.chars().last().unwrap())
        })
        .count() as i64
}
