package solution

import "strings"

func FilterByPrefix(strs []string, prefix string) []string {
	out := []string{}
	for _, s := range strs {
		if strings.HasPrefix(s, prefix) {
			out = append(out, s)
		}
	}
	return out
}
