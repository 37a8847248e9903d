package solution

func Compare(game []int, guess []int) []int {
	out := make([]int, len(game))
	for i := range game {
		d := game[i] - guess[i]
		if d < 0 {
			d = -d
		}
		out[i] = d
	}
	return out
}
