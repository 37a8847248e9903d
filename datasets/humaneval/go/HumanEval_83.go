package solution

func StartsOneEnds(n int) int {
	if n == 1 {
		return 1
	}
	out := 18
	for i := 2; i < n; i++ {
		out *= 10
	}
	return out
}
