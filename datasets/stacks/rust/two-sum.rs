use std::collections::HashMap;

pub fn two_sum(nums: Vec<i64>, target: i64) -> Option<(i64, i64)> {
    let mut seen: HashMap<i64, usize> = HashMap::new();
    for (j, &v) in nums.iter().enumerate() {
        if let Some(&i) = seen.get(&(target - v)) {
            return Some((i as i64, j as i64));
        }
        seen.entry(v).or_insert(j);
    }
    None
}
