package solution

import "strings"

func RemoveVowels(text string) string {
	out := []rune{}
	for _, c := range text {
		if !strings.ContainsRune("aeiouAEIOU", c) {
			out = append(out, c)
		}
	}
	return string(out)
}
