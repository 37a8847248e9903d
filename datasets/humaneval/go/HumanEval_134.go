package solution

import (
	"strings"
	"unicode"
)

func CheckIfLastCharIsALetter(txt string) bool {
	parts := strings.Split(txt, " ")
	last := []rune(parts[len(parts)-1])
	return len(last) == 1 && unicode.IsLetter(last[0]) && last[0] < 128
}
