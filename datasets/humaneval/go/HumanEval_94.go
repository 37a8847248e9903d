package solution

import "strconv"

func Skjkasdkd(lst []int) int {
	isPrime := func(n int) bool {
		if n < 2 {
			return false
		}
		for d := 2; d*d <= n; d++ {
			if n%d == 0 {
				return false
			}
		}
		return true
	}
	best := 0
	for _, x := range lst {
		if x > best && isPrime(x) {
			best = x
		}
	}
	sum := 0
	for _, c := range strconv.Itoa(best) {
		sum += int(c - '0')
	}
	return sum
}
