package solution

import "strings"

func CycpatternCheck(a string, b string) bool {
	for i := 0; i < len(b); i++ {
		if strings.Contains(a, b[i:]+b[:i]) {
			return true
		}
	}
	return len(b) == 0
}
