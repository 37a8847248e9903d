package solution

func IsEqualToSumEven(n int) bool {
	return n%2 == 0 && n >= 8
}
