package solution

import "strings"

func FileNameCheck(fileName string) string {
	parts := strings.Split(fileName, ".")
	if len(parts) != 2 {
		return "No"
	}
	name, ext := parts[0], parts[1]
	if ext != "txt" && ext != "exe" && ext != "dll" {
		return "No"
	}
	if len(name) == 0 || !((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z')) {
		return "No"
	}
	digits := 0
	for _, c := range name {
		if c >= '0' && c <= '9' {
			digits++
		}
	}
	if digits > 3 {
		return "No"
	}
	return "Yes"
}
