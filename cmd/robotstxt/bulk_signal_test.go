package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBulkSIGTERM runs the program in a child process, reading URLs from a
// pipe that stays open, and sends it SIGTERM once results are flowing. It
// stops as on SIGINT: every line written is whole JSON, the summary is
// written, and the exit status says SIGTERM (143). SIGTERM used to kill
// it: no summary, and a line cut wherever the write was.
func TestBulkSIGTERM(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM to send")
	}
	fw := newFakeWeb(t)
	cmd := exec.Command(os.Args[0], "bulk", "--store", "memory", "--timeout", "10s", "-c", "Googlebot", "-c", "Bingbot")
	cmd.Env = append(os.Environ(), "ROBOTSTXT_RUN_MAIN=1", "HTTP_PROXY="+fw.URL, "NO_PROXY=", "http_proxy=", "no_proxy=")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	go func() {
		// Long URLs, many of them: the output is large while the signal
		// comes. The pipe is not closed: the child waits for more.
		var b strings.Builder
		for i := range 20_000 {
			fmt.Fprintf(&b, "http://s%d.test/%d/%s\n", 8+50*(i%40), i, strings.Repeat("p", 200))
		}
		io.WriteString(stdin, b.String())
	}()
	r := bufio.NewReader(stdout)
	first, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("no result: %v; stderr:\n%s", err, stderr.String())
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(r)
	werr := make(chan error, 1)
	go func() { werr <- cmd.Wait() }()
	select {
	case err = <-werr:
	case <-time.After(60 * time.Second):
		t.Fatal("bulk did not stop after SIGTERM")
	}
	stdin.Close()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	}
	out := first + string(rest)
	lines := strings.SplitAfter(out, "\n")
	if last := lines[len(lines)-1]; last != "" {
		t.Errorf("the output ends in a cut line: %q", last[:min(len(last), 80)])
	}
	n := 0
	for _, l := range lines[:len(lines)-1] {
		var row bulkRow
		if err := json.Unmarshal([]byte(l), &row); err != nil {
			t.Fatalf("output line %d is not JSON: %v: %q", n+1, err, l)
		}
		n++
	}
	if code != 143 {
		t.Errorf("exit status %d (%v), want 143; stderr:\n%s", code, err, stderr.String())
	}
	// "1 URL, 2 results" or "40 URLs, 1 result": the counts in their
	// number.
	summary := regexp.MustCompile(fmt.Sprintf(` URLs?, %d results? in `, n))
	if !summary.MatchString(stderr.String()) || !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("no summary of the %d results written on stderr:\n%s", n, stderr.String())
	}
}
