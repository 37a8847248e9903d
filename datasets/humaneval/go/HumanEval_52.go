package solution

func BelowThreshold(l []int, t int) bool {
	for _, x := range l {
		if x >= t {
			return false
		}
	}
	return true
}
