package solution

func CountUpTo(n int) []int {
	out := []int{}
	for i := 2; i < n; i++ {
		prime := true
		for d := 2; d*d <= i; d++ {
			if i%d == 0 {
				prime = false
				break
			}
		}
		if prime {
			out = append(out, i)
		}
	}
	return out
}
