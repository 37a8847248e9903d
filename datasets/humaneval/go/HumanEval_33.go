package solution

import "sort"

func SortThird(l []int) []int {
	thirds := []int{}
	for i := 0; i < len(l); i += 3 {
		thirds = append(thirds, l[i])
	}
	sort.Ints(thirds)
	out := append([]int{}, l...)
	for i := 0; i < len(l); i += 3 {
		out[i] = thirds[i/3]
	}
	return out
}
