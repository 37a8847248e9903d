package solution

func SpecialFactorial(n int) int {
	fact, special := 1, 1
	for i := 1; i <= n; i++ {
		fact *= i
		special *= fact
	}
	return special
}
