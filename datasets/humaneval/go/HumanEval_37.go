package solution

import "sort"

func SortEven(l []int) []int {
	evens := []int{}
	for i := 0; i < len(l); i += 2 {
		evens = append(evens, l[i])
	}
	sort.Ints(evens)
	out := append([]int{}, l...)
	for i := 0; i < len(l); i += 2 {
		out[i] = evens[i/2]
	}
	return out
}
