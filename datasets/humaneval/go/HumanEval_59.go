package solution

func LargestPrimeFactor(n int) int {
	largest := 1
	for d := 2; d*d <= n; d++ {
		for n%d == 0 {
			largest = d
			n /= d
		}
	}
	if n > 1 && n > largest {
		largest = n
	}
	return largest
}
