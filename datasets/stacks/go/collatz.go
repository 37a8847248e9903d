package solution

func CollatzSteps(n int) *int {
	if n < 1 {
		return nil
	}
	steps := 0
	for n != 1 {
		if n%2 == 0 {
			n /= 2
		} else {
			n = 3*n + 1
		}
		steps++
	}
	return &steps
}
