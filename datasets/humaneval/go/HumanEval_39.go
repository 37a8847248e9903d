package solution

func PrimeFib(n int) int {
	isPrime := func(p int) bool {
		if p < 2 {
			return false
		}
		for d := 2; d*d <= p; d++ {
			if p%d == 0 {
				return false
			}
		}
		return true
	}
	a, b := 0, 1
	for {
		a, b = b, a+b
		if isPrime(b) {
			n--
			if n == 0 {
				return b
			}
		}
	}
}
