package solution

import (
	"regexp"
	"strconv"
	"strings"
)

func ValidDate(date string) bool {
	m := regexp.MustCompile(`^(\d{2})-(\d{2})-(\d{4})$`).FindStringSubmatch(strings.TrimSpace(date))
	if m == nil {
		return false
	}
	month, _ := strconv.Atoi(m[1])
	day, _ := strconv.Atoi(m[2])
	if month < 1 || month > 12 || day < 1 {
		return false
	}
	switch month {
	case 1, 3, 5, 7, 8, 10, 12:
		return day <= 31
	case 4, 6, 9, 11:
		return day <= 30
	}
	return day <= 29
}
