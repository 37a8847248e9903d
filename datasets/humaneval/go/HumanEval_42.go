package solution

func IncrList(l []int) []int {
	out := make([]int, len(l))
	for i, x := range l {
		out[i] = x + 1
	}
	return out
}
