package solution

import "unicode"

func FlipCase(s string) string {
	out := []rune{}
	for _, c := range s {
		if unicode.IsUpper(c) {
			out = append(out, unicode.ToLower(c))
		} else {
			out = append(out, unicode.ToUpper(c))
		}
	}
	return string(out)
}
