package solution

import "strings"

func Histogram(test string) map[string]int {
	counts := map[string]int{}
	best := 0
	for _, w := range strings.Fields(test) {
		counts[w]++
		if counts[w] > best {
			best = counts[w]
		}
	}
	out := map[string]int{}
	for k, v := range counts {
		if v == best {
			out[k] = v
		}
	}
	return out
}
