package solution

func MakeAPile(n int) []int {
	out := []int{}
	for i := 0; i < n; i++ {
		out = append(out, n+2*i)
	}
	return out
}
