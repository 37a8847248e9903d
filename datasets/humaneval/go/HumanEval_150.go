package solution

func XOrY(n int, x int, y int) int {
	if n < 2 {
		return y
	}
	for d := 2; d*d <= n; d++ {
		if n%d == 0 {
			return y
		}
	}
	return x
}
