package solution

func Exchange(lst1 []int, lst2 []int) string {
	odd, even := 0, 0
	for _, x := range lst1 {
		if x%2 != 0 {
			odd++
		}
	}
	for _, x := range lst2 {
		if x%2 == 0 {
			even++
		}
	}
	if even >= odd {
		return "YES"
	}
	return "NO"
}
