package solution

import "sort"

func Common(l1 []int, l2 []int) []int {
	in2 := map[int]bool{}
	for _, x := range l2 {
		in2[x] = true
	}
	seen := map[int]bool{}
	out := []int{}
	for _, x := range l1 {
		if in2[x] && !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Ints(out)
	return out
}
