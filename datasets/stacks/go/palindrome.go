package solution

func IsPalindrome(s string) bool {
	keep := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') {
			keep = append(keep, c)
		}
	}
	for i, j := 0, len(keep)-1; i < j; i, j = i+1, j-1 {
		if keep[i] != keep[j] {
			return false
		}
	}
	return true
}
