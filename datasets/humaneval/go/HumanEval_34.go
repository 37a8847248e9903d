package solution

import "sort"

func Unique(l []int) []int {
	seen := map[int]bool{}
	out := []int{}
	for _, x := range l {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Ints(out)
	return out
}
