package stores

import "fmt"

// Store keeps the total quantity of each item.
type Store struct{ items map[string]int }

func New() *Store { return &Store{items: map[string]int{}} }

func (s *Store) Add(name string, qty int) { s.items[name] += qty }

// Report lists the items whose total is positive, by name: "name total".
func (s *Store) Report() []string {
	names := make([]string, 0, len(s.items))
	for n, q := range s.items {
		if q > 0 {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	out := make([]string, 0, len(names))
	for _, n := range names {
		out = append(out, fmt.Sprintf("%s %d", n, s.items[n]))
	}
	return out
}
