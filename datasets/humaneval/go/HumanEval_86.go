package solution

import (
	"sort"
	"strings"
)

func AntiShuffle(s string) string {
	words := strings.Split(s, " ")
	for i, w := range words {
		r := []rune(w)
		sort.Slice(r, func(a, b int) bool { return r[a] < r[b] })
		words[i] = string(r)
	}
	return strings.Join(words, " ")
}
