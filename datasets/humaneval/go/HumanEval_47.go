package solution

import "sort"

func Median(l []int) float64 {
	s := append([]int{}, l...)
	sort.Ints(s)
	n := len(s)
	if n%2 == 1 {
		return float64(s[n/2])
	}
	return float64(s[n/2-1]+s[n/2]) / 2.0
}
