package solution

import "math"

func TriangleArea(a int, b int, c int) float64 {
	if a+b <= c || a+c <= b || b+c <= a {
		return -1
	}
	p := float64(a+b+c) / 2
	area := math.Sqrt(p * (p - float64(a)) * (p - float64(b)) * (p - float64(c)))
	return math.Round(area*100) / 100
}
