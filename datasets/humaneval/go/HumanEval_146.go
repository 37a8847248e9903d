package solution

import "strconv"

func SpecialFilter(nums []int) int {
	odd := func(b byte) bool { return b == '1' || b == '3' || b == '5' || b == '7' || b == '9' }
	count := 0
	for _, n := range nums {
		s := strconv.Itoa(n)
		if n > 10 && odd(s[0]) && odd(s[len(s)-1]) {
			count++
		}
	}
	return count
}
