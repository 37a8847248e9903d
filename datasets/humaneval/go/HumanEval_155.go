package solution

import "strconv"

func EvenOddCount(num int) (int, int) {
	if num < 0 {
		num = -num
	}
	even, odd := 0, 0
	for _, c := range strconv.Itoa(num) {
		if (c-'0')%2 == 0 {
			even++
		} else {
			odd++
		}
	}
	return even, odd
}
