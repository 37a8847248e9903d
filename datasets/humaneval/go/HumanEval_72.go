package solution

func WillItFly(q []int, w int) bool {
	sum := 0
	for _, x := range q {
		sum += x
	}
	if sum > w {
		return false
	}
	for i, j := 0, len(q)-1; i < j; i, j = i+1, j-1 {
		if q[i] != q[j] {
			return false
		}
	}
	return true
}
