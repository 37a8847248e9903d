package solution

import (
	"strconv"
	"strings"
)

func FizzBuzz(n int) int {
	count := 0
	for i := 0; i < n; i++ {
		if i%11 == 0 || i%13 == 0 {
			count += strings.Count(strconv.Itoa(i), "7")
		}
	}
	return count
}
