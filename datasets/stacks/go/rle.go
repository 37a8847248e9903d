package solution

import (
	"strconv"
	"strings"
)

func RunLengthEncode(s string) string {
	var b strings.Builder
	r := []rune(s)
	for i := 0; i < len(r); {
		j := i
		for j < len(r) && r[j] == r[i] {
			j++
		}
		b.WriteRune(r[i])
		b.WriteString(strconv.Itoa(j - i))
		i = j
	}
	return b.String()
}
