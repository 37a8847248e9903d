package solution

import "strings"

func ParseMusic(musicString string) []int {
	beats := map[string]int{"o": 4, "o|": 2, ".|": 1}
	out := []int{}
	for _, note := range strings.Fields(musicString) {
		out = append(out, beats[note])
	}
	return out
}
