package solution

func Fibfib(n int) int {
	f := []int{0, 0, 1}
	for i := 3; i <= n; i++ {
		f = append(f, f[i-1]+f[i-2]+f[i-3])
	}
	return f[n]
}
