package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// serveChild is `robotstxt serve` in a child process.
type serveChild struct {
	cmd    *exec.Cmd
	page   string
	stderr *lockedBuffer
	exited chan error
}

func startServeChild(t *testing.T, args ...string) *serveChild {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"serve", "--addr", "127.0.0.1:0", "--allow-private", "--log-level", "warn"}, args...)...)
	cmd.Env = append(os.Environ(), "ROBOTSTXT_RUN_MAIN=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &serveChild{cmd: cmd, stderr: &lockedBuffer{}, exited: make(chan error, 1)}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	m := servingAt.FindStringSubmatch(line)
	if err != nil || m == nil {
		t.Fatalf("serve printed %q (%v); stderr:\n%s", line, err, c.stderr)
	}
	c.page = m[1]
	go func() { io.Copy(io.Discard, stdout); c.exited <- cmd.Wait() }()
	return c
}

// term sends SIGTERM and waits for the child to exit (at most limit).
func (c *serveChild) term(t *testing.T, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-c.exited:
		if err != nil {
			t.Errorf("serve exited with %v; stderr:\n%s", err, c.stderr)
		}
	case <-time.After(limit):
		t.Fatalf("serve did not exit within %v of SIGTERM", limit)
	}
	return time.Since(start)
}

// alertHook is a webhook receiver whose answer a test sets: hang until
// the client goes, or answer 200 after a delay.
type alertHook struct {
	*httptest.Server
	hang      atomic.Bool
	delay     atomic.Int64 // nanoseconds
	arrived   chan string  // the delivery id of each post as it comes
	mu        sync.Mutex
	completed []string // the delivery ids answered 200
}

func newAlertHook(t *testing.T) *alertHook {
	h := &alertHook{arrived: make(chan string, 20)}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body) // so that the server sees the client go
		id := r.Header.Get("X-Robotstxt-Delivery")
		h.arrived <- id
		if h.hang.Load() {
			<-r.Context().Done()
			return
		}
		select {
		case <-time.After(time.Duration(h.delay.Load())):
		case <-r.Context().Done():
			return
		}
		h.mu.Lock()
		h.completed = append(h.completed, id)
		h.mu.Unlock()
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *alertHook) done() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.completed...)
}

// watchedChange makes a watch of a local site on the child's server,
// waits for its baseline, changes the file and waits for the alert's
// first post to arrive at h: its delivery id.
func watchedChange(t *testing.T, c *serveChild, h *alertHook) string {
	t.Helper()
	var mu sync.Mutex
	body := "User-agent: *\nAllow: /\n"
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		io.WriteString(w, body)
	}))
	t.Cleanup(site.Close)
	resp, err := http.Post(c.page+"v1/watches", "application/json",
		strings.NewReader(fmt.Sprintf(`{"origin": %q, "urls": ["/"], "every": "1s", "webhook": %q}`, site.URL, h.URL)))
	if err != nil {
		t.Fatal(err)
	}
	var made struct {
		ID    string `json:"id"`
		Owner string `json:"owner_secret"`
	}
	json.NewDecoder(resp.Body).Decode(&made)
	resp.Body.Close()
	if resp.StatusCode != 201 {
		t.Fatalf("POST /v1/watches: %d", resp.StatusCode)
	}
	for deadline := time.Now().Add(30 * time.Second); ; {
		req, _ := http.NewRequest("GET", c.page+"v1/watches/"+made.ID, nil)
		req.Header.Set("X-Robotstxt-Owner", made.Owner)
		var st struct{ Checks int }
		if resp, err := http.DefaultClient.Do(req); err == nil {
			json.NewDecoder(resp.Body).Decode(&st)
			resp.Body.Close()
		}
		if st.Checks >= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the watch's baseline never came; stderr:\n%s", c.stderr)
		}
		time.Sleep(50 * time.Millisecond)
	}
	mu.Lock()
	body = "User-agent: *\nDisallow: /\n"
	mu.Unlock()
	select {
	case id := <-h.arrived:
		return id
	case <-time.After(30 * time.Second):
		t.Fatalf("no alert came; stderr:\n%s", c.stderr)
	}
	return ""
}

// TestServeSIGTERMDrains: SIGTERM while an alert is being posted to a
// receiver that takes 1.5 s: the server drains it within
// --shutdown-timeout, then exits. Before, it exited at once, the post cut.
func TestServeSIGTERMDrains(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM to send")
	}
	h := newAlertHook(t)
	h.delay.Store(int64(1500 * time.Millisecond))
	file := filepath.Join(t.TempDir(), "cache.db")
	c := startServeChild(t, "--store", file, "--watch-min-interval", "1s", "--shutdown-timeout", "10s")
	id := watchedChange(t, c, h)
	took := c.term(t, 20*time.Second)
	if got := h.done(); len(got) != 1 || got[0] != id {
		t.Errorf("alerts answered: %q, want [%q] (serve exited %v after SIGTERM)", got, id, took)
	}
}

// TestServeSIGTERMKeeps: SIGTERM while the receiver hangs: the server
// exits after --shutdown-timeout, keeping the alert in its store; the
// next start sends it, with the same delivery id. Before, it was lost.
func TestServeSIGTERMKeeps(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM to send")
	}
	h := newAlertHook(t)
	h.hang.Store(true)
	file := filepath.Join(t.TempDir(), "cache.db")
	args := []string{"--store", file, "--watch-min-interval", "1s", "--shutdown-timeout", "500ms"}
	c := startServeChild(t, args...)
	id := watchedChange(t, c, h)
	c.term(t, 20*time.Second)
	h.hang.Store(false)
	c2 := startServeChild(t, args...)
	deadline := time.After(30 * time.Second)
	for {
		if got := h.done(); len(got) > 0 {
			if got[0] != id {
				t.Errorf("the kept alert came as %q, want %q", got[0], id)
			}
			break
		}
		select {
		case <-deadline:
			t.Fatalf("the kept alert never came; stderr:\n%s", c2.stderr)
		case <-time.After(20 * time.Millisecond):
		}
	}
	c2.term(t, 20*time.Second)
}
