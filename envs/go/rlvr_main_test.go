package solution

// Added to every go job by rlvr. The test binary runs its tests only when the sandbox runner
// (root, not pid 1) started it with exactly the runner's flags: a copy the answer starts itself
// (`-test.list` to learn the names, `-test.run` to pick tests) exits at once. Everything the
// tests print on stdout is read here and re-printed as `<nonce> > <line>`, with the job's
// nonce that only this function holds (rlvrguard), then `<nonce> exit <code>` with m.Run's own
// result.
// Lines the answer prints itself carry no nonce; lines it slips into the captured stream are
// signed but can only add results (duplicates, unknown names), never change m.Run's code.

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"solution/rlvrguard"
)

func rlvrParentIsRunner() bool {
	ppid := os.Getppid()
	if ppid <= 1 {
		return false
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", ppid))
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "Uid:") {
			f := strings.Fields(line)
			return len(f) > 1 && f[1] == "0"
		}
	}
	return false
}

func rlvrRefuse(why string) {
	fmt.Fprintln(os.Stderr, "rlvr: refused:", why)
	os.Exit(3)
}

func TestMain(m *testing.M) {
	// only the generated test main may call this (not the answer, with an *M of its own)
	pc, _, _, ok := runtime.Caller(1)
	if f := runtime.FuncForPC(pc); !ok || f == nil || f.Name() != "main.main" {
		rlvrRefuse("TestMain was not called by the test binary's main")
	}
	nonce := rlvrguard.Take()
	flag.Parse()
	want := map[string]string{
		"test.v": "true", "test.paniconexit0": "true", "test.count": "1", "test.list": "",
		"test.run": "", "test.bench": "", "test.failfast": "false", "test.shuffle": "off",
	}
	for name, value := range want {
		if f := flag.Lookup(name); f == nil || f.Value.String() != value {
			rlvrRefuse(fmt.Sprintf("-%s is not %q", name, value))
		}
	}
	if nonce == "" || flag.NArg() != 0 || !rlvrParentIsRunner() {
		rlvrRefuse("not started by the sandbox runner")
	}
	saved, err := syscall.Dup(1)
	if err != nil {
		rlvrRefuse("cannot keep stdout")
	}
	out := os.NewFile(uintptr(saved), "rlvr-stdout")
	r, w, err := os.Pipe()
	if err != nil || syscall.Dup3(int(w.Fd()), 1, 0) != nil {
		rlvrRefuse("cannot capture stdout")
	}
	done := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		for sc.Scan() {
			fmt.Fprintf(out, "%s > %s\n", nonce, sc.Text())
		}
		close(done)
	}()
	code := m.Run()
	devnull, _ := os.Open(os.DevNull)
	syscall.Dup3(int(devnull.Fd()), 1, 0)
	w.Close()
	<-done
	fmt.Fprintf(out, "%s exit %d\n", nonce, code)
	os.Exit(code)
}
