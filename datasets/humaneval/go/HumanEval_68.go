package solution

func Pluck(arr []int) []int {
	best, idx := -1, -1
	for i, x := range arr {
		if x%2 == 0 && (idx < 0 || x < best) {
			best, idx = x, i
		}
	}
	if idx < 0 {
		return []int{}
	}
	return []int{best, idx}
}
