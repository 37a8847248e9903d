package solution

func GenerateIntegers(a int, b int) []int {
	lo, hi := a, b
	if lo > hi {
		lo, hi = hi, lo
	}
	if lo < 2 {
		lo = 2
	}
	if hi > 8 {
		hi = 8
	}
	out := []int{}
	for i := lo; i <= hi; i++ {
		if i%2 == 0 {
			out = append(out, i)
		}
	}
	return out
}
