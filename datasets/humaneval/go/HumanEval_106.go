package solution

func F(n int) []int {
	out := []int{}
	for i := 1; i <= n; i++ {
		if i%2 == 0 {
			p := 1
			for j := 1; j <= i; j++ {
				p *= j
			}
			out = append(out, p)
		} else {
			out = append(out, i*(i+1)/2)
		}
	}
	return out
}
