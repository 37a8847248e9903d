package solution

func StrongestExtension(className string, extensions []string) string {
	strength := func(e string) int {
		s := 0
		for _, c := range e {
			if c >= 'A' && c <= 'Z' {
				s++
			} else if c >= 'a' && c <= 'z' {
				s--
			}
		}
		return s
	}
	best := extensions[0]
	for _, e := range extensions {
		if strength(e) > strength(best) {
			best = e
		}
	}
	return className + "." + best
}
