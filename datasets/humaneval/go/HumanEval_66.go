package solution

func DigitSum(s string) int {
	sum := 0
	for _, c := range s {
		if c >= 'A' && c <= 'Z' {
			sum += int(c)
		}
	}
	return sum
}
