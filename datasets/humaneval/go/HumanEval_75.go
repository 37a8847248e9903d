package solution

func IsMultiplyPrime(a int) bool {
	isPrime := func(n int) bool {
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
	for i := 2; i <= 100; i++ {
		for j := 2; j <= 100; j++ {
			for k := 2; k <= 100; k++ {
				if isPrime(i) && isPrime(j) && isPrime(k) && i*j*k == a {
					return true
				}
			}
		}
	}
	return false
}
