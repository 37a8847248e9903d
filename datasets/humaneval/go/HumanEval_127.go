package solution

func Intersection(interval1 [2]int, interval2 [2]int) string {
	lo, hi := interval1[0], interval1[1]
	if interval2[0] > lo {
		lo = interval2[0]
	}
	if interval2[1] < hi {
		hi = interval2[1]
	}
	n := hi - lo
	if n < 2 {
		return "NO"
	}
	for d := 2; d*d <= n; d++ {
		if n%d == 0 {
			return "NO"
		}
	}
	return "YES"
}
