package solution

import "sort"

func StrangeSortList(lst []int) []int {
	s := append([]int{}, lst...)
	sort.Ints(s)
	out := []int{}
	lo, hi, low := 0, len(s)-1, true
	for lo <= hi {
		if low {
			out = append(out, s[lo])
			lo++
		} else {
			out = append(out, s[hi])
			hi--
		}
		low = !low
	}
	return out
}
