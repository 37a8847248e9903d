package solution

func MaxElement(l []int) int {
	best := l[0]
	for _, x := range l {
		if x > best {
			best = x
		}
	}
	return best
}
