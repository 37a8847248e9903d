package solution

func ProdSigns(arr []int) *int {
	if len(arr) == 0 {
		return nil
	}
	sign, sum := 1, 0
	for _, x := range arr {
		if x == 0 {
			sign = 0
		} else if x < 0 {
			sign = -sign
			sum -= x
		} else {
			sum += x
		}
	}
	out := sign * sum
	return &out
}
