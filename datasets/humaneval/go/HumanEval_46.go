package solution

func Fib4(n int) int {
	f := []int{0, 0, 2, 0}
	if n < 4 {
		return f[n]
	}
	for i := 4; i <= n; i++ {
		f = append(f, f[i-1]+f[i-2]+f[i-3]+f[i-4])
	}
	return f[n]
}
