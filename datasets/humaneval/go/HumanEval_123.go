package solution

import "sort"

func GetOddCollatz(n int) []int {
	out := []int{}
	if n%2 == 1 {
		out = append(out, n)
	}
	for n > 1 {
		if n%2 == 0 {
			n /= 2
		} else {
			n = 3*n + 1
		}
		if n%2 == 1 {
			out = append(out, n)
		}
	}
	sort.Ints(out)
	return out
}
