package solution

import (
	"math"
	"strconv"
)

func ClosestInteger(value string) int {
	num, _ := strconv.ParseFloat(value, 64)
	if math.Abs(num-math.Trunc(num)) == 0.5 {
		if num > 0 {
			return int(math.Ceil(num))
		}
		return int(math.Floor(num))
	}
	return int(math.Round(num))
}
