package solution

import (
	"sort"
	"strconv"
)

func UniqueDigits(x []int) []int {
	out := []int{}
	for _, n := range x {
		ok := true
		for _, c := range strconv.Itoa(n) {
			if (c-'0')%2 == 0 {
				ok = false
			}
		}
		if ok {
			out = append(out, n)
		}
	}
	sort.Ints(out)
	return out
}
