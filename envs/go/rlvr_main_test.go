package solution

// Added to every go job by rlvr. The test binary runs its tests only when the sandbox runner
// (root, not pid 1) started it with exactly the runner's flags: a copy the answer starts itself
// (`-test.list` to learn the names, `-test.run` to pick tests) exits at once. Everything the
// tests print on stdout is read here and re-printed as `<mac> <seq> > <line>`, then
// `<mac> <seq> exit <code>` with m.Run's own result, where mac is an HMAC-SHA256 of
// "<seq> <text>" keyed with the job's nonce, which only this function holds (rlvrguard). The host
// keeps only lines whose mac verifies, in unbroken sequence, ending with `exit 0`. Lines the
// answer prints carry no valid mac; lines it slips into the captured stream are signed but can
// only add results (duplicates, unknown names); lines it intercepts leave a gap; none of it can
// change m.Run's code.

import (
	"bufio"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
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

func rlvrSerial() bool {
	debug := "," + os.Getenv("GODEBUG") + ","
	return runtime.GOMAXPROCS(0) == 1 && strings.Contains(debug, ",asyncpreemptoff=1,")
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
		"test.cpu": "",
	}
	for name, value := range want {
		if f := flag.Lookup(name); f == nil || f.Value.String() != value {
			rlvrRefuse(fmt.Sprintf("-%s is not %q", name, value))
		}
	}
	if nonce == "" || flag.NArg() != 0 || !rlvrParentIsRunner() {
		rlvrRefuse("not started by the sandbox runner")
	}
	// One P and no asynchronous preemption (GOMAXPROCS=1 and GODEBUG=asyncpreemptoff=1, set by
	// the manifest): goroutines switch only at calls and blocking points, so a data race cannot
	// tear a multi-word value (an interface, a slice header) into a forged pointer. The answer
	// can change neither (build.sh refuses runtime and flag; -test.cpu is refused above).
	if !rlvrSerial() {
		rlvrRefuse("GOMAXPROCS=1 and GODEBUG=asyncpreemptoff=1 are required")
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
	seq := 0
	sign := func(text string) {
		body := fmt.Sprintf("%d %s", seq, text)
		mac := hmac.New(sha256.New, []byte(nonce))
		mac.Write([]byte(body))
		fmt.Fprintf(out, "%s %s\n", hex.EncodeToString(mac.Sum(nil))[:32], body)
		seq++
	}
	done := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		for sc.Scan() {
			sign("> " + sc.Text())
		}
		close(done)
	}()
	code := m.Run()
	if !rlvrSerial() && code == 0 {
		code = 1
	}
	devnull, _ := os.Open(os.DevNull)
	syscall.Dup3(int(devnull.Fd()), 1, 0)
	w.Close()
	<-done
	sign(fmt.Sprintf("exit %d", code))
	os.Exit(code)
}
