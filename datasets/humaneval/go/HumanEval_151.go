package solution

import "math"

func DoubleTheDifference(lst []float64) int {
	sum := 0
	for _, x := range lst {
		if x > 0 && x == math.Trunc(x) && int(x)%2 == 1 {
			sum += int(x) * int(x)
		}
	}
	return sum
}
