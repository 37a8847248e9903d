package solution

func MinSubArraySum(nums []int) int {
	best, cur := nums[0], 0
	for _, x := range nums {
		if cur > 0 {
			cur = x
		} else {
			cur += x
		}
		if cur < best {
			best = cur
		}
	}
	return best
}
