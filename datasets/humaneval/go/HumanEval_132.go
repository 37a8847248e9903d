package solution

func IsNested(s string) bool {
	opens, closes := []int{}, []int{}
	for i, c := range s {
		if c == '[' {
			opens = append(opens, i)
		} else {
			closes = append(closes, i)
		}
	}
	count, j := 0, len(closes)-1
	for _, i := range opens {
		if j >= 0 && i < closes[j] {
			count++
			j--
		}
	}
	return count >= 2
}
