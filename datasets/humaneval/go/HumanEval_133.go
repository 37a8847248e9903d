package solution

import "math"

func SumSquares(lst []float64) int {
	sum := 0
	for _, x := range lst {
		c := int(math.Ceil(x))
		sum += c * c
	}
	return sum
}
