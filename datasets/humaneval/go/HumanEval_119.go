package solution

func MatchParens(lst []string) string {
	ok := func(s string) bool {
		depth := 0
		for _, c := range s {
			if c == '(' {
				depth++
			} else {
				depth--
			}
			if depth < 0 {
				return false
			}
		}
		return depth == 0
	}
	if ok(lst[0]+lst[1]) || ok(lst[1]+lst[0]) {
		return "Yes"
	}
	return "No"
}
