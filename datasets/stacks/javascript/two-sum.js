function twoSum(nums, target) {
  const seen = new Map();
  for (let j = 0; j < nums.length; j++) {
    const want = target - nums[j];
    if (seen.has(want)) return [seen.get(want), j];
    if (!seen.has(nums[j])) seen.set(nums[j], j);
  }
  return null;
}
module.exports = { twoSum };
