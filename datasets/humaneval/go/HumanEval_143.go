package solution

import "strings"

func WordsInSentence(sentence string) string {
	isPrime := func(n int) bool {
		if n < 2 {
			return false
		}
		for d := 2; d*d <= n; d++ {
			if n%d == 0 {
				return false
			}
		}
		return true
	}
	out := []string{}
	for _, w := range strings.Split(sentence, " ") {
		if isPrime(len(w)) {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}
