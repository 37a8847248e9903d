// Package rlvrguard holds the job's nonce where the answer cannot reach it.
//
// rlvr's TestMain imports this package, so Go initialises it before package solution: its
// init reads the nonce from stdin (the runner writes it there and closes the pipe) before any
// of the answer's variables or init functions exist. The nonce stays in an unexported variable
// (no unsafe, no linkname, no readable /proc/self/mem for the answer) and Take hands it out
// once, to solution.TestMain only.
package rlvrguard

import (
	"bufio"
	"os"
	"runtime"
	"strings"
)

var nonce string

func init() {
	line, _ := bufio.NewReader(os.Stdin).ReadString('\n')
	nonce = strings.TrimSpace(line)
	os.Stdin.Close()
}

// Take returns the nonce to solution.TestMain, once; "" to anyone else or a second time.
func Take() string {
	pc, _, _, ok := runtime.Caller(1)
	f := runtime.FuncForPC(pc)
	n := nonce
	nonce = ""
	if !ok || f == nil || f.Name() != "solution.TestMain" || len(n) < 16 {
		return ""
	}
	return n
}
