package solution

func Derivative(xs []int) []int {
	out := []int{}
	for i := 1; i < len(xs); i++ {
		out = append(out, xs[i]*i)
	}
	return out
}
