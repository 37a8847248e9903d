package solution

func Rotate(m [][]int) [][]int {
	out := [][]int{}
	if len(m) == 0 {
		return out
	}
	rows, cols := len(m), len(m[0])
	for c := 0; c < cols; c++ {
		row := make([]int, 0, rows)
		for r := rows - 1; r >= 0; r-- {
			row = append(row, m[r][c])
		}
		out = append(out, row)
	}
	return out
}
