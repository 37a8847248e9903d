package solution

func DoAlgebra(operator []string, operand []int) int {
	pow := func(a, b int) int {
		r := 1
		for i := 0; i < b; i++ {
			r *= a
		}
		return r
	}
	floorDiv := func(a, b int) int {
		q := a / b
		if (a%b != 0) && ((a < 0) != (b < 0)) {
			q--
		}
		return q
	}
	// ** binds tightest and to the right
	vals := []int{operand[len(operand)-1]}
	ops := []string{}
	for i := len(operator) - 1; i >= 0; i-- {
		if operator[i] == "**" {
			vals[0] = pow(operand[i], vals[0])
		} else {
			vals = append([]int{operand[i]}, vals...)
			ops = append([]string{operator[i]}, ops...)
		}
	}
	// then * and //, left to right
	terms := []int{vals[0]}
	signs := []string{}
	for i, op := range ops {
		v := vals[i+1]
		switch op {
		case "*":
			terms[len(terms)-1] *= v
		case "//":
			terms[len(terms)-1] = floorDiv(terms[len(terms)-1], v)
		default:
			terms = append(terms, v)
			signs = append(signs, op)
		}
	}
	result := terms[0]
	for i, s := range signs {
		if s == "+" {
			result += terms[i+1]
		} else {
			result -= terms[i+1]
		}
	}
	return result
}
