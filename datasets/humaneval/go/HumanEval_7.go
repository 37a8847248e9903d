package solution

import "strings"

func FilterBySubstring(strs []string, substring string) []string {
	out := []string{}
	for _, s := range strs {
		if strings.Contains(s, substring) {
			out = append(out, s)
		}
	}
	return out
}
