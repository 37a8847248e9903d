package solution

func Search(lst []int) int {
	counts := map[int]int{}
	for _, x := range lst {
		counts[x]++
	}
	ans := -1
	for x, c := range counts {
		if x > 0 && c >= x && x > ans {
			ans = x
		}
	}
	return ans
}
