package solution

import "unicode"

func Solve(s string) string {
	letters := false
	out := []rune{}
	for _, c := range s {
		if unicode.IsLetter(c) {
			letters = true
			if unicode.IsUpper(c) {
				c = unicode.ToLower(c)
			} else {
				c = unicode.ToUpper(c)
			}
		}
		out = append(out, c)
	}
	if !letters {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return string(out)
}
