package solution

import (
	"strconv"
	"strings"
)

func Simplify(x string, n string) bool {
	a := strings.Split(x, "/")
	b := strings.Split(n, "/")
	an, _ := strconv.Atoi(a[0])
	ad, _ := strconv.Atoi(a[1])
	bn, _ := strconv.Atoi(b[0])
	bd, _ := strconv.Atoi(b[1])
	return (an*bn)%(ad*bd) == 0
}
