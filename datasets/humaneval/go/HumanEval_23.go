package solution

func Strlen(s string) int {
	return len(s)
}
