package main

import (
	"bufio"
	"fmt"
	"os"

	"example.com/inventory/store"
)

func main() {
	s := store.New()
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		var name string
		var qty int
		if _, err := fmt.Sscan(sc.Text(), &name, &qty); err != nil {
			continue
		}
		s.Add(name, qty)
	}
	for _, line := range s.Report() {
		fmt.Println(line)
	}
}
