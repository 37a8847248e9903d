package solution

import (
	"strings"
	"unicode"
)

func Encode(message string) string {
	out := []rune{}
	for _, c := range message {
		if unicode.IsUpper(c) {
			c = unicode.ToLower(c)
		} else {
			c = unicode.ToUpper(c)
		}
		if strings.ContainsRune("aeiouAEIOU", c) {
			c += 2
		}
		out = append(out, c)
	}
	return string(out)
}
