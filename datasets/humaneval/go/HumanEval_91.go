package solution

import "regexp"

func IsBored(S string) int {
	n := 0
	for _, s := range regexp.MustCompile(`[.?!]\s*`).Split(S, -1) {
		if len(s) >= 2 && s[:2] == "I " {
			n++
		}
	}
	return n
}
