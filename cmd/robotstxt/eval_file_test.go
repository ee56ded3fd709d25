package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestEvalRobotsFileRegularOnly: robots_file reads regular files only (a
// FIFO would block, /dev/zero never end), and no more than the size limit.
func TestEvalRobotsFileRegularOnly(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	big := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(big, []byte("User-agent: *\nDisallow: /x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 65<<20); err != nil { // sparse: no disk written
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file, want string
		args             []string
	}{
		{"fifo", fifo, `{"error":"question 1: robots_file: ` + fifo + ` is not a regular file"}`, nil},
		{"device", "/dev/zero", `{"error":"question 1: robots_file: /dev/zero is not a regular file"}`, []string{"-max-bytes", "-1"}},
		{"over the limit with no parse limit", big, `{"error":"question 1: robots_file: ` + big + ` is over 64 MiB"}`, []string{"-max-bytes", "-1"}},
		{"cut at the limit", big, `{"allowed":false,"line":2,"rule":"Disallow: /x","dialect":"google"}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan struct{})
			var code int
			var out, stderr string
			go func() {
				defer close(done)
				code, out, stderr = runCmd(t, `{"robots_file":"`+tc.file+`","ua":"a","url":"/x"}`+"\n", append([]string{"eval"}, tc.args...)...)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("eval hangs")
			}
			if code != evalStatus(tc.want) || strings.TrimSpace(out) != tc.want {
				t.Errorf("exit %d\ngot  %s\nwant %s\nstderr: %s", code, strings.TrimSpace(out), tc.want, stderr)
			}
		})
	}
}
