package solution

import "math"

func MeanAbsoluteDeviation(numbers []float64) float64 {
	sum := 0.0
	for _, x := range numbers {
		sum += x
	}
	mean := sum / float64(len(numbers))
	dev := 0.0
	for _, x := range numbers {
		dev += math.Abs(x - mean)
	}
	return dev / float64(len(numbers))
}
