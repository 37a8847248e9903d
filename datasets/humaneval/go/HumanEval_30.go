package solution

func GetPositive(l []int) []int {
	out := []int{}
	for _, x := range l {
		if x > 0 {
			out = append(out, x)
		}
	}
	return out
}
