package solution

import "fmt"

func OddCount(lst []string) []string {
	out := []string{}
	for _, s := range lst {
		n := 0
		for _, c := range s {
			if (c-'0')%2 == 1 {
				n++
			}
		}
		out = append(out, fmt.Sprintf("the number of odd elements %dn the str%dng %d of the %dnput.", n, n, n, n))
	}
	return out
}
