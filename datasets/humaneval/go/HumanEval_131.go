package solution

import "strconv"

func Digits(n int) int {
	product, any := 1, false
	for _, c := range strconv.Itoa(n) {
		d := int(c - '0')
		if d%2 == 1 {
			product *= d
			any = true
		}
	}
	if !any {
		return 0
	}
	return product
}
