package solution

import "strconv"

func ChangeBase(x int, base int) string {
	if x == 0 {
		return "0"
	}
	out := ""
	for x > 0 {
		out = strconv.Itoa(x%base) + out
		x /= base
	}
	return out
}
