package solution

import "regexp"

func FixSpaces(text string) string {
	text = regexp.MustCompile(` {3,}`).ReplaceAllString(text, "-")
	return regexp.MustCompile(` `).ReplaceAllString(text, "_")
}
