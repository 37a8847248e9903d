fn order_by_points(nums: Vec<i64>) -> Vec<i64> {
    let digit_sum = |n: i64| {
        let mut d: Vec<i64> =
            n.abs().to_string().chars().map(|c| c.to_digit(10).unwrap() as i64).collect();
        if n < 0 {
            d[0] = -d[0];
        }
        d.iter().sum::<i64>()
    };
    let mut out = nums.clone();
    out.sort_by_key(|&n| digit_sum(n));
    out
}
