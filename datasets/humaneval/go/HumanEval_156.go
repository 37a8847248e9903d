package solution

func IntToMiniRoman(number int) string {
	values := []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
	symbols := []string{"m", "cm", "d", "cd", "c", "xc", "l", "xl", "x", "ix", "v", "iv", "i"}
	out := ""
	for i, v := range values {
		for number >= v {
			out += symbols[i]
			number -= v
		}
	}
	return out
}
