package solution

import "strings"

func CountUpper(s string) int {
	n := 0
	for i := 0; i < len(s); i += 2 {
		if strings.ContainsRune("AEIOU", rune(s[i])) {
			n++
		}
	}
	return n
}
