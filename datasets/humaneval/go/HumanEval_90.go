package solution

import "sort"

func NextSmallest(lst []int) *int {
	seen := map[int]bool{}
	u := []int{}
	for _, x := range lst {
		if !seen[x] {
			seen[x] = true
			u = append(u, x)
		}
	}
	sort.Ints(u)
	if len(u) < 2 {
		return nil
	}
	return &u[1]
}
