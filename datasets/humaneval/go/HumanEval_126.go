package solution

func IsSorted(lst []int) bool {
	counts := map[int]int{}
	for _, x := range lst {
		counts[x]++
		if counts[x] > 2 {
			return false
		}
	}
	for i := 1; i < len(lst); i++ {
		if lst[i-1] > lst[i] {
			return false
		}
	}
	return true
}
