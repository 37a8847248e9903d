package solution

import "math"

func AnyInt(x float64, y float64, z float64) bool {
	for _, v := range []float64{x, y, z} {
		if v != math.Trunc(v) {
			return false
		}
	}
	return x+y == z || x+z == y || y+z == x
}
