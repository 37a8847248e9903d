#[allow(non_snake_case)]
fn minSubArraySum(nums: Vec<i64>) -> i64 {
    let mut best = nums[0];
    let mut cur = 0;
    for &x in &nums {
        cur = if cur > 0 { x } else { cur + x };
        best = best.min(cur);
    }
    best
}
