package solution

import "strconv"

func CircularShift(x int, shift int) string {
	s := strconv.Itoa(x)
	if shift > len(s) {
		r := []byte(s)
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return string(r)
	}
	return s[len(s)-shift:] + s[:len(s)-shift]
}
