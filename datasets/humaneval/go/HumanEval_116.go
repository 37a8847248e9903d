package solution

import (
	"math/bits"
	"sort"
)

func SortArray(arr []int) []int {
	out := append([]int{}, arr...)
	ones := func(n int) int {
		if n < 0 {
			n = -n
		}
		return bits.OnesCount(uint(n))
	}
	sort.Ints(out)
	sort.SliceStable(out, func(i, j int) bool { return ones(out[i]) < ones(out[j]) })
	return out
}
