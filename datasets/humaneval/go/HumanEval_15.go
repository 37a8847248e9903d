package solution

import (
	"strconv"
	"strings"
)

func StringSequence(n int) string {
	parts := []string{}
	for i := 0; i <= n; i++ {
		parts = append(parts, strconv.Itoa(i))
	}
	return strings.Join(parts, " ")
}
