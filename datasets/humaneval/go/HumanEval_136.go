package solution

func LargestSmallestIntegers(lst []int) (*int, *int) {
	var neg, pos *int
	for i := range lst {
		x := lst[i]
		if x < 0 && (neg == nil || x > *neg) {
			neg = &lst[i]
		}
		if x > 0 && (pos == nil || x < *pos) {
			pos = &lst[i]
		}
	}
	return neg, pos
}
