package solution

import (
	"strconv"
	"strings"
)

func FruitDistribution(s string, n int) int {
	for _, w := range strings.Fields(s) {
		if v, err := strconv.Atoi(w); err == nil {
			n -= v
		}
	}
	return n
}
