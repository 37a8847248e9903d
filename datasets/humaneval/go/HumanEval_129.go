package solution

func MinPath(grid [][]int, k int) []int {
	n := len(grid)
	best := n*n + 1
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if grid[i][j] != 1 {
				continue
			}
			if i > 0 && grid[i-1][j] < best {
				best = grid[i-1][j]
			}
			if j > 0 && grid[i][j-1] < best {
				best = grid[i][j-1]
			}
			if i < n-1 && grid[i+1][j] < best {
				best = grid[i+1][j]
			}
			if j < n-1 && grid[i][j+1] < best {
				best = grid[i][j+1]
			}
		}
	}
	out := []int{}
	for i := 0; i < k; i++ {
		if i%2 == 0 {
			out = append(out, 1)
		} else {
			out = append(out, best)
		}
	}
	return out
}
