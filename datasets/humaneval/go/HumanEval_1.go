package solution

func SeparateParenGroups(parenString string) []string {
	groups := []string{}
	current := []rune{}
	depth := 0
	for _, c := range parenString {
		switch c {
		case '(':
			depth++
			current = append(current, c)
		case ')':
			depth--
			current = append(current, c)
			if depth == 0 {
				groups = append(groups, string(current))
				current = current[:0]
			}
		}
	}
	return groups
}
