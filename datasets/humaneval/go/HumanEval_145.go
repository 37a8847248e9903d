package solution

import (
	"sort"
	"strconv"
)

func OrderByPoints(nums []int) []int {
	digitSum := func(n int) int {
		neg := n < 0
		if neg {
			n = -n
		}
		sum := 0
		for i, c := range strconv.Itoa(n) {
			d := int(c - '0')
			if i == 0 && neg {
				d = -d
			}
			sum += d
		}
		return sum
	}
	out := append([]int{}, nums...)
	sort.SliceStable(out, func(i, j int) bool { return digitSum(out[i]) < digitSum(out[j]) })
	return out
}
