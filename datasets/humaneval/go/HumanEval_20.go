package solution

import "math"

func FindClosestElements(numbers []float64) (float64, float64) {
	best := math.Inf(1)
	var lo, hi float64
	for i := range numbers {
		for j := range numbers {
			if i == j {
				continue
			}
			d := math.Abs(numbers[i] - numbers[j])
			if d < best {
				best = d
				lo, hi = math.Min(numbers[i], numbers[j]), math.Max(numbers[i], numbers[j])
			}
		}
	}
	return lo, hi
}
