package solution

func Longest(strs []string) *string {
	if len(strs) == 0 {
		return nil
	}
	best := strs[0]
	for _, s := range strs {
		if len(s) > len(best) {
			best = s
		}
	}
	return &best
}
