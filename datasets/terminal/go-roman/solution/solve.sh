#!/bin/bash
set -e
cd /app
cat > roman.go <<'GO'
package main

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
)

var vals = []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
var syms = []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}

func toRoman(n int) string {
	s := ""
	for i, v := range vals {
		for n >= v {
			s += syms[i]
			n -= v
		}
	}
	return s
}

func main() {
	if len(os.Args) != 2 {
		os.Exit(1)
	}
	a := os.Args[1]
	if regexp.MustCompile(`^[0-9]+$`).MatchString(a) {
		n, err := strconv.Atoi(a)
		if err != nil || n < 1 || n > 3999 {
			os.Exit(1)
		}
		fmt.Println(toRoman(n))
		return
	}
	for n := 1; n <= 3999; n++ {
		if toRoman(n) == a {
			fmt.Println(n)
			return
		}
	}
	os.Exit(1)
}
GO
go build -o roman roman.go
