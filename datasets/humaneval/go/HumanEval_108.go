package solution

import "strconv"

func CountNums(arr []int) int {
	count := 0
	for _, n := range arr {
		neg := n < 0
		if neg {
			n = -n
		}
		s := strconv.Itoa(n)
		sum := 0
		for i, c := range s {
			d := int(c - '0')
			if i == 0 && neg {
				d = -d
			}
			sum += d
		}
		if sum > 0 {
			count++
		}
	}
	return count
}
