package solution

func SumProduct(numbers []int) (int, int) {
	sum, product := 0, 1
	for _, n := range numbers {
		sum += n
		product *= n
	}
	return sum, product
}
