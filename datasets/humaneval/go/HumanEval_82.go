package solution

func PrimeLength(s string) bool {
	n := len(s)
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
