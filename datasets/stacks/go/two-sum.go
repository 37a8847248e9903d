package solution

func TwoSum(nums []int, target int) *[2]int {
	seen := map[int]int{}
	for j, v := range nums {
		if i, found := seen[target-v]; found {
			return &[2]int{i, j}
		}
		if _, found := seen[v]; !found {
			seen[v] = j
		}
	}
	return nil
}
