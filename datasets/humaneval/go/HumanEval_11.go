package solution

func StringXor(a string, b string) string {
	out := make([]byte, len(a))
	for i := range a {
		if a[i] == b[i] {
			out[i] = '0'
		} else {
			out[i] = '1'
		}
	}
	return string(out)
}
