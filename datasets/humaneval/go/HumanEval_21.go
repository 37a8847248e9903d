package solution

func RescaleToUnit(numbers []float64) []float64 {
	lo, hi := numbers[0], numbers[0]
	for _, x := range numbers {
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
	}
	out := make([]float64, len(numbers))
	for i, x := range numbers {
		out[i] = (x - lo) / (hi - lo)
	}
	return out
}
