package solution

func Encrypt(s string) string {
	out := []rune{}
	for _, c := range s {
		if c >= 'a' && c <= 'z' {
			out = append(out, 'a'+(c-'a'+4)%26)
		} else {
			out = append(out, c)
		}
	}
	return string(out)
}
