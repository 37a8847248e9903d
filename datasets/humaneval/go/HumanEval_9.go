package solution

func RollingMax(numbers []int) []int {
	out := []int{}
	for i, n := range numbers {
		if i == 0 || n > out[i-1] {
			out = append(out, n)
		} else {
			out = append(out, out[i-1])
		}
	}
	return out
}
