package solution

func NumericalLetterGrade(grades []float64) []string {
	limits := []float64{3.7, 3.3, 3.0, 2.7, 2.3, 2.0, 1.7, 1.3, 1.0, 0.7, 0.0}
	letters := []string{"A", "A-", "B+", "B", "B-", "C+", "C", "C-", "D+", "D", "D-"}
	out := []string{}
	for _, g := range grades {
		if g == 4.0 {
			out = append(out, "A+")
			continue
		}
		letter := "E"
		for i, limit := range limits {
			if g > limit {
				letter = letters[i]
				break
			}
		}
		out = append(out, letter)
	}
	return out
}
