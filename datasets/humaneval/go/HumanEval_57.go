package solution

func Monotonic(l []int) bool {
	up, down := true, true
	for i := 1; i < len(l); i++ {
		if l[i] < l[i-1] {
			up = false
		}
		if l[i] > l[i-1] {
			down = false
		}
	}
	return up || down
}
