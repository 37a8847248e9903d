package solution

func isPalindrome10(s string) bool {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		if s[i] != s[j] {
			return false
		}
	}
	return true
}

func MakePalindrome(s string) string {
	if s == "" {
		return ""
	}
	start := 0
	for !isPalindrome10(s[start:]) {
		start++
	}
	out := []byte(s)
	for i := start - 1; i >= 0; i-- {
		out = append(out, s[i])
	}
	return string(out)
}
