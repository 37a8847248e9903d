package solution

func SumToN(n int) int {
	return n * (n + 1) / 2
}
