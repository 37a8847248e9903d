package solution

import "strings"

func VowelsCount(s string) int {
	n := 0
	for _, c := range s {
		if strings.ContainsRune("aeiouAEIOU", c) {
			n++
		}
	}
	if len(s) > 0 && (s[len(s)-1] == 'y' || s[len(s)-1] == 'Y') {
		n++
	}
	return n
}
