package solution

func Intersperse(numbers []int, delimeter int) []int {
	out := []int{}
	for i, n := range numbers {
		if i > 0 {
			out = append(out, delimeter)
		}
		out = append(out, n)
	}
	return out
}
