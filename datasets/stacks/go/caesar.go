package solution

import "strings"

func Caesar(text string, shift int) string {
	k := ((shift % 26) + 26) % 26
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+rune(k))%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+rune(k))%26
		}
		return r
	}, text)
}
