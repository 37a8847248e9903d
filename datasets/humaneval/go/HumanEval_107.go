package solution

import "strconv"

func EvenOddPalindrome(n int) (int, int) {
	even, odd := 0, 0
	for i := 1; i <= n; i++ {
		s := strconv.Itoa(i)
		pal := true
		for a, b := 0, len(s)-1; a < b; a, b = a+1, b-1 {
			if s[a] != s[b] {
				pal = false
			}
		}
		if pal {
			if i%2 == 0 {
				even++
			} else {
				odd++
			}
		}
	}
	return even, odd
}
