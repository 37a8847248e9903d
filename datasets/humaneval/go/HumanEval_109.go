package solution

import "sort"

func MoveOneBall(arr []int) bool {
	if len(arr) == 0 {
		return true
	}
	sorted := append([]int{}, arr...)
	sort.Ints(sorted)
	for shift := 0; shift < len(arr); shift++ {
		ok := true
		for i := range arr {
			if arr[(i+shift)%len(arr)] != sorted[i] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
