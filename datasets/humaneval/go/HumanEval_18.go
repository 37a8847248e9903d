package solution

func HowManyTimes(s string, substring string) int {
	count := 0
	for i := 0; i+len(substring) <= len(s); i++ {
		if s[i:i+len(substring)] == substring {
			count++
		}
	}
	return count
}
