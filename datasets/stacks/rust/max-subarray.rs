pub fn max_subarray_sum(nums: Vec<i64>) -> i64 {
    let mut best = nums[0];
    let mut cur = nums[0];
    for &v in &nums[1..] {
        cur = v.max(cur + v);
        best = best.max(cur);
    }
    best
}
