package solution

func TotalMatch(lst1 []string, lst2 []string) []string {
	total := func(l []string) int {
		n := 0
		for _, s := range l {
			n += len(s)
		}
		return n
	}
	if total(lst1) <= total(lst2) {
		return lst1
	}
	return lst2
}
