package solution

func GetRow(lst [][]int, x int) [][2]int {
	out := [][2]int{}
	for i, row := range lst {
		for j := len(row) - 1; j >= 0; j-- {
			if row[j] == x {
				out = append(out, [2]int{i, j})
			}
		}
	}
	return out
}
