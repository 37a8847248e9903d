package solution

func AllPrefixes(s string) []string {
	out := []string{}
	for i := 1; i <= len(s); i++ {
		out = append(out, s[:i])
	}
	return out
}
