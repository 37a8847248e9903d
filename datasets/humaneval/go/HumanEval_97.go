package solution

func Multiply(a int, b int) int {
	abs := func(v int) int {
		if v < 0 {
			return -v
		}
		return v
	}
	return abs(a%10) * abs(b%10)
}
