package solution

func Tri(n int) []float64 {
	if n == 0 {
		return []float64{1}
	}
	out := []float64{1, 3}
	for i := 2; i <= n; i++ {
		if i%2 == 0 {
			out = append(out, float64(i)/2+1)
		} else {
			out = append(out, out[i-1]+out[i-2]+float64(i+3)/2)
		}
	}
	return out
}
