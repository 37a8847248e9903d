package solution

import "sort"

func GroupAnagrams(words []string) [][]string {
	index := map[string]int{}
	out := [][]string{}
	for _, w := range words {
		b := []byte(w)
		sort.Slice(b, func(i, j int) bool { return b[i] < b[j] })
		key := string(b)
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], w)
	}
	return out
}
