package solution

func CarRaceCollision(n int) int {
	return n * n
}
