package solution

import (
	"sort"
	"strings"
)

func SortNumbers(numbers string) string {
	value := map[string]int{"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4,
		"five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
	words := strings.Fields(numbers)
	sort.SliceStable(words, func(i, j int) bool { return value[words[i]] < value[words[j]] })
	return strings.Join(words, " ")
}
