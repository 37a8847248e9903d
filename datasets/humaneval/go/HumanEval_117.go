package solution

import (
	"strings"
	"unicode"
)

func SelectWords(s string, n int) []string {
	out := []string{}
	for _, w := range strings.Fields(s) {
		c := 0
		for _, r := range strings.ToLower(w) {
			if unicode.IsLetter(r) && !strings.ContainsRune("aeiou", r) {
				c++
			}
		}
		if c == n {
			out = append(out, w)
		}
	}
	return out
}
