package solution

func TriangleArea(a int, h int) float64 {
	return float64(a) * float64(h) / 2.0
}
