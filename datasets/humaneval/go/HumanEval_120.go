package solution

import "sort"

func Maximum(arr []int, k int) []int {
	s := append([]int{}, arr...)
	sort.Ints(s)
	return append([]int{}, s[len(s)-k:]...)
}
