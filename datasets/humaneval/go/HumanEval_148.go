package solution

func Bf(planet1 string, planet2 string) []string {
	names := []string{"Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn", "Uranus", "Neptune"}
	i, j := -1, -1
	for k, n := range names {
		if n == planet1 {
			i = k
		}
		if n == planet2 {
			j = k
		}
	}
	if i < 0 || j < 0 || i == j {
		return []string{}
	}
	if i > j {
		i, j = j, i
	}
	return append([]string{}, names[i+1:j]...)
}
