package solution

import "sort"

func ByLength(arr []int) []string {
	names := []string{"One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"}
	keep := []int{}
	for _, x := range arr {
		if x >= 1 && x <= 9 {
			keep = append(keep, x)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(keep)))
	out := []string{}
	for _, x := range keep {
		out = append(out, names[x-1])
	}
	return out
}
