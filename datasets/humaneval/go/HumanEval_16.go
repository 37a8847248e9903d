package solution

import "strings"

func CountDistinctCharacters(s string) int {
	seen := map[rune]bool{}
	for _, c := range strings.ToLower(s) {
		seen[c] = true
	}
	return len(seen)
}
