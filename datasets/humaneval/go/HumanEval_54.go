package solution

func SameChars(s0 string, s1 string) bool {
	a, b := map[rune]bool{}, map[rune]bool{}
	for _, c := range s0 {
		a[c] = true
	}
	for _, c := range s1 {
		b[c] = true
	}
	if len(a) != len(b) {
		return false
	}
	for c := range a {
		if !b[c] {
			return false
		}
	}
	return true
}
