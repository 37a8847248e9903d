package solution

import "strings"

func ReverseDelete(s string, c string) (string, bool) {
	kept := []rune{}
	for _, r := range s {
		if !strings.ContainsRune(c, r) {
			kept = append(kept, r)
		}
	}
	pal := true
	for i, j := 0, len(kept)-1; i < j; i, j = i+1, j-1 {
		if kept[i] != kept[j] {
			pal = false
		}
	}
	return string(kept), pal
}
