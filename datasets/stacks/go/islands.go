package solution

func CountIslands(grid []string) int {
	rows := len(grid)
	if rows == 0 {
		return 0
	}
	cols := len(grid[0])
	seen := make([]bool, rows*cols)
	count := 0
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			if grid[r][c] != '1' || seen[r*cols+c] {
				continue
			}
			count++
			seen[r*cols+c] = true
			stack := [][2]int{{r, c}}
			for len(stack) > 0 {
				p := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
					y, x := p[0]+d[0], p[1]+d[1]
					if y < 0 || x < 0 || y >= rows || x >= cols {
						continue
					}
					if grid[y][x] == '1' && !seen[y*cols+x] {
						seen[y*cols+x] = true
						stack = append(stack, [2]int{y, x})
					}
				}
			}
		}
	}
	return count
}
