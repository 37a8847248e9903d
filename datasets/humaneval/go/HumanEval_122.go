package solution

import "strconv"

func AddElements(arr []int, k int) int {
	sum := 0
	for _, x := range arr[:k] {
		if len(strconv.Itoa(x)) <= 2 {
			sum += x
		}
	}
	return sum
}
