package solution

import "strings"

func Concatenate(strs []string) string {
	return strings.Join(strs, "")
}
