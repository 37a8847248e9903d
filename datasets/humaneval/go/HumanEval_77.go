package solution

import "math"

func Iscube(a int) bool {
	if a < 0 {
		a = -a
	}
	r := int(math.Round(math.Cbrt(float64(a))))
	return r*r*r == a
}
