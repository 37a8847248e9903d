package solution

func SumSquares(lst []int) int {
	sum := 0
	for i, x := range lst {
		switch {
		case i%3 == 0:
			sum += x * x
		case i%4 == 0:
			sum += x * x * x
		default:
			sum += x
		}
	}
	return sum
}
