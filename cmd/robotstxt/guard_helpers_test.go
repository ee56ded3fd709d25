package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// testRobots is the site's robots.txt in the guard's tests: GPTBot may
// fetch /public/ only, every crawler is kept out of /private/.
const testRobots = "User-agent: GPTBot\nAllow: /public/\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n"

// upstreamSite is a loopback site that records the requests it gets.
type upstreamSite struct {
	*httptest.Server
	mu     sync.Mutex
	robots string
	seen   []*http.Request
}

func newUpstreamSite(t *testing.T, robots string) *upstreamSite {
	t.Helper()
	u := &upstreamSite{robots: robots}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u.mu.Lock()
		u.seen = append(u.seen, r.Clone(context.Background()))
		body := u.robots
		u.mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, body)
			return
		}
		fmt.Fprintf(w, "page %s\n", r.URL.Path)
	}))
	t.Cleanup(u.Close)
	return u
}

// paths are the paths the site was asked for, but /robots.txt.
func (u *upstreamSite) paths() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	var out []string
	for _, r := range u.seen {
		if r.URL.Path != "/robots.txt" {
			out = append(out, r.URL.Path)
		}
	}
	return out
}

func (u *upstreamSite) last() *http.Request {
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.seen) == 0 {
		return nil
	}
	return u.seen[len(u.seen)-1]
}

func (u *upstreamSite) setRobots(s string) {
	u.mu.Lock()
	u.robots = s
	u.mu.Unlock()
}

// runningGuard is robotstxt guard run in the test's process.
type runningGuard struct {
	proxy, decide  string // "http://127.0.0.1:PORT", "" when not served
	stdout, stderr *syncBuffer
	code           chan int
	stop           context.CancelFunc
	once           sync.Once
}

// syncBuffer is a bytes.Buffer safe for one writer and many readers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startGuard runs robotstxt guard with args (on free loopback ports: give
// no --addr) until the test ends, and waits until it listens.
func startGuard(t *testing.T, args ...string) *runningGuard {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	g := &runningGuard{stdout: &syncBuffer{}, stderr: &syncBuffer{}, code: make(chan int, 1), stop: cancel}
	ready := make(chan struct{})
	go func() {
		g.code <- guardMain(ctx, append([]string{"--addr", "127.0.0.1:0"}, args...), g.stdout, g.stderr, func(p, d net.Addr) {
			if p != nil {
				g.proxy = "http://" + p.String()
			}
			if d != nil {
				g.decide = "http://" + d.String()
			}
			close(ready)
		})
	}()
	select {
	case <-ready:
	case code := <-g.code:
		cancel()
		t.Fatalf("robotstxt guard %s: exit %d before listening\n%s", strings.Join(args, " "), code, g.stderr.String())
	case <-time.After(20 * time.Second):
		cancel()
		t.Fatalf("robotstxt guard: not listening after 20s\n%s", g.stderr.String())
	}
	t.Cleanup(func() { g.shutdown(t) })
	return g
}

// shutdown stops the guard as SIGTERM does and checks that it exits 0
// within 40s; once.
func (g *runningGuard) shutdown(t *testing.T) {
	t.Helper()
	g.once.Do(func() {
		g.stop()
		select {
		case code := <-g.code:
			if code != 0 {
				t.Errorf("robotstxt guard: exit %d after its shutdown\n%s", code, g.stderr.String())
			}
		case <-time.After(40 * time.Second):
			t.Errorf("robotstxt guard: still running 40s after its shutdown")
		}
	})
}

// guardClient sends requests without keeping connections (each test's
// servers go away with it) and without following redirects.
var guardClient = &http.Client{
	Timeout:       20 * time.Second,
	Transport:     &http.Transport{DisableKeepAlives: true, Proxy: nil},
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// ask sends method url with the header fields of hdr ("Name: value"
// lines) and returns the status, the answer's header and its body.
func ask(t *testing.T, method, url string, hdr ...string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hdr {
		k, v, _ := strings.Cut(h, ":")
		if strings.EqualFold(k, "Host") {
			req.Host = strings.TrimSpace(v)
			continue
		}
		req.Header.Add(k, strings.TrimSpace(v))
	}
	resp, err := guardClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// writeFile writes text to name in dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// freePort returns a loopback address no one listens on now.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// eventually retries f every 20ms until it returns "" or d passes, and
// fails with its last complaint.
func eventually(t *testing.T, d time.Duration, f func() string) {
	t.Helper()
	end := time.Now().Add(d)
	for {
		msg := f()
		if msg == "" {
			return
		}
		if time.Now().After(end) {
			t.Fatal(msg)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitListening waits until something accepts connections at addr.
func waitListening(t *testing.T, addr string, d time.Duration, what func() string) {
	t.Helper()
	eventually(t, d, func() string {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err != nil {
			return fmt.Sprintf("nothing listens at %s: %v\n%s", addr, err, what())
		}
		c.Close()
		return ""
	})
}
