package solution

import "sort"

func SortedListSum(lst []string) []string {
	out := []string{}
	for _, s := range lst {
		if len(s)%2 == 0 {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i]) != len(out[j]) {
			return len(out[i]) < len(out[j])
		}
		return out[i] < out[j]
	})
	return out
}
