package solution

import "sort"

func SortArray(array []int) []int {
	out := append([]int{}, array...)
	if len(out) == 0 {
		return out
	}
	if (array[0]+array[len(array)-1])%2 == 0 {
		sort.Sort(sort.Reverse(sort.IntSlice(out)))
	} else {
		sort.Ints(out)
	}
	return out
}
