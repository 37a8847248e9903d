package solution

import "strings"

func ParseNestedParens(parenString string) []int {
	out := []int{}
	for _, group := range strings.Fields(parenString) {
		depth, best := 0, 0
		for _, c := range group {
			if c == '(' {
				depth++
				if depth > best {
					best = depth
				}
			} else if c == ')' {
				depth--
			}
		}
		out = append(out, best)
	}
	return out
}
