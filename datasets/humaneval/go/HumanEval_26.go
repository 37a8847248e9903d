package solution

func RemoveDuplicates(numbers []int) []int {
	counts := map[int]int{}
	for _, n := range numbers {
		counts[n]++
	}
	out := []int{}
	for _, n := range numbers {
		if counts[n] == 1 {
			out = append(out, n)
		}
	}
	return out
}
