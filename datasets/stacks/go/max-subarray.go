package solution

func MaxSubarraySum(nums []int) int {
	best, cur := nums[0], nums[0]
	for _, v := range nums[1:] {
		if cur+v > v {
			cur += v
		} else {
			cur = v
		}
		if cur > best {
			best = cur
		}
	}
	return best
}
