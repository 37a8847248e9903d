package solution

func LongestCommonPrefix(words []string) string {
	if len(words) == 0 {
		return ""
	}
	prefix := words[0]
	for _, w := range words[1:] {
		i := 0
		for i < len(prefix) && i < len(w) && prefix[i] == w[i] {
			i++
		}
		prefix = prefix[:i]
	}
	return prefix
}
