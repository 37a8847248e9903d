package solution

var values = map[byte]int{'I': 1, 'V': 5, 'X': 10, 'L': 50, 'C': 100, 'D': 500, 'M': 1000}

func RomanToInt(s string) int {
	total := 0
	for i := 0; i < len(s); i++ {
		v := values[s[i]]
		if i+1 < len(s) && values[s[i+1]] > v {
			total -= v
		} else {
			total += v
		}
	}
	return total
}
