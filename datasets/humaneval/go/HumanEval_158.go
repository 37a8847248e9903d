package solution

func FindMax(words []string) string {
	best, bestN := "", -1
	for _, w := range words {
		seen := map[rune]bool{}
		for _, c := range w {
			seen[c] = true
		}
		n := len(seen)
		if n > bestN || (n == bestN && w < best) {
			best, bestN = w, n
		}
	}
	return best
}
