package solution

func PrimesUpTo(n int) []int {
	out := []int{}
	if n < 2 {
		return out
	}
	composite := make([]bool, n+1)
	for i := 2; i <= n; i++ {
		if composite[i] {
			continue
		}
		out = append(out, i)
		for j := i * i; j <= n; j += i {
			composite[j] = true
		}
	}
	return out
}
