package solution

func MaxFill(grid [][]int, capacity int) int {
	total := 0
	for _, row := range grid {
		water := 0
		for _, x := range row {
			water += x
		}
		total += (water + capacity - 1) / capacity
	}
	return total
}
