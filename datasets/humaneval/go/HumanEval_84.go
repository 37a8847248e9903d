package solution

import "strconv"

func Solve(N int) string {
	sum := 0
	for _, c := range strconv.Itoa(N) {
		sum += int(c - '0')
	}
	return strconv.FormatInt(int64(sum), 2)
}
