package solution

func Add(x int, y int) int {
	return x + y
}
