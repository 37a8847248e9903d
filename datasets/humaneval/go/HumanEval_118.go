package solution

import "strings"

func GetClosestVowel(word string) string {
	vowel := func(b byte) bool { return strings.IndexByte("aeiouAEIOU", b) >= 0 }
	for i := len(word) - 2; i >= 1; i-- {
		if vowel(word[i]) && !vowel(word[i-1]) && !vowel(word[i+1]) {
			return string(word[i])
		}
	}
	return ""
}
