package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/internal/testweb"
)

// lockedBuffer is a buffer written by the server's goroutines and read by
// the test.
type lockedBuffer = testweb.LockedBuffer

var servingAt = regexp.MustCompile(`serving the tester at (http://\S+/) `)

// startServe runs robotstxt serve with args until the test ends, and
// returns the page's address, the stderr buffer and a stop function that
// returns the exit status.
func startServe(t *testing.T, args ...string) (page string, stderr *lockedBuffer, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout, stderr := &lockedBuffer{}, &lockedBuffer{}
	done := make(chan int, 1)
	go func() { done <- serve(ctx, args, stdout, stderr) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if m := servingAt.FindStringSubmatch(stdout.String()); m != nil {
			page = m[1]
			break
		}
		select {
		case code := <-done:
			cancel()
			t.Fatalf("serve exited %d: %s", code, stderr)
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("serve printed no address: %q %q", stdout, stderr)
		}
		time.Sleep(5 * time.Millisecond)
	}
	var once sync.Once
	code := 0
	stop = func() int {
		once.Do(func() { cancel(); code = <-done })
		return code
	}
	t.Cleanup(func() { stop() })
	return page, stderr, stop
}

func httpGet(t *testing.T, u string, header ...string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", u, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func TestServe(t *testing.T) {
	useTempCache(t)
	t.Setenv("ROBOTSTXT_TOKEN", "")
	s := newSite(t, 200, "User-agent: *\nDisallow: /private\n")
	page, stderr, stop := startServe(t, "--addr", "127.0.0.1:0", "--store", "memory", "--allow-private")
	if !strings.HasPrefix(page, "http://127.0.0.1:") {
		t.Errorf("page %q", page)
	}
	if code, body := httpGet(t, page+"healthz"); code != 200 || !strings.Contains(string(body), `"ok"`) {
		t.Errorf("healthz: %d %s", code, body)
	}
	code, body := httpGet(t, page+"v1/fetch?url="+url.QueryEscape(s.URL))
	var info fetchInfo
	if err := json.Unmarshal(body, &info); err != nil || code != 200 || info.Policy != "rules" || info.Source != "network" || info.Store != "memory" {
		t.Errorf("fetch: %d %s", code, body)
	}
	if code, body := httpGet(t, page); code != 200 || !strings.Contains(string(body), "<html") {
		t.Errorf("page: %d %s", code, body)
	}
	if code := stop(); code != 0 {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if log := stderr.String(); !strings.Contains(log, "route=\"GET /v1/fetch\"") || !strings.Contains(log, "status=200") || !strings.Contains(log, "--allow-private") {
		t.Errorf("log: %s", log)
	}
}

func TestServeDefaultStoreAndToken(t *testing.T) {
	dir := useTempCache(t)
	t.Setenv("ROBOTSTXT_TOKEN", "from-env")
	page, stderr, stop := startServe(t, "--addr", "127.0.0.1:0")
	if code, body := httpGet(t, page+"readyz", "Authorization", "Bearer from-env"); code != 200 || !strings.Contains(string(body), filepath.Join(dir, "robotstxt", "cache.db")) {
		t.Errorf("readyz: %d %s", code, body)
	}
	// Without the token, only whether the server is ready.
	if code, body := httpGet(t, page+"readyz"); code != 200 || string(body) != `{"status":"ready"}`+"\n" {
		t.Errorf("readyz without the token: %d %s", code, body)
	}
	if code, _ := httpGet(t, page+"v1/fetch?url=example.com"); code != 401 {
		t.Errorf("no token: %d", code)
	}
	if code, body := httpGet(t, page+"v1/fetch", "Authorization", "Bearer from-env"); code != 400 || !strings.Contains(string(body), `"field":"url"`) {
		t.Errorf("with the token: %d %s", code, body)
	}
	if code := stop(); code != 0 {
		t.Errorf("exit %d: %s", code, stderr)
	}

	file := filepath.Join(t.TempDir(), "token")
	os.WriteFile(file, []byte("from-file\n"), 0o600)
	page, _, _ = startServe(t, "--addr", "127.0.0.1:0", "--store", "memory", "--token-file", file)
	if code, _ := httpGet(t, page+"v1/fetch", "Authorization", "Bearer from-env"); code != 401 {
		t.Errorf("the file's token should win over the environment's: %d", code)
	}
	if code, _ := httpGet(t, page+"v1/fetch", "Authorization", "Bearer from-file"); code != 400 {
		t.Errorf("the file's token refused: %d", code)
	}
}

func TestServeUsage(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty")
	os.WriteFile(empty, []byte("\n"), 0o600)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--nosuch"}, "robotstxt serve: unknown flag --nosuch"},
		{[]string{"extra"}, `robotstxt serve: unexpected argument "extra"`},
		{[]string{"--timeout", "0s"}, "robotstxt serve: --timeout must be positive"},
		{[]string{"--idle-timeout", "-1s"}, "robotstxt serve: --idle-timeout must be positive"},
		{[]string{"--rate", "-1"}, "robotstxt serve: --rate must be"},
		{[]string{"--sweep-every", "-1s"}, "robotstxt serve: --sweep-every must be 0 (never) or more"},
		{[]string{"--log-level", "loud"}, "robotstxt serve: --log-level: want debug"},
		{[]string{"--token-file", empty}, "robotstxt serve: --token-file: " + empty + ": the first line is empty"},
		{[]string{"--token-file", filepath.Join(t.TempDir(), "none")}, "robotstxt serve: --token-file: open "},
		{[]string{"-A", "bad\nagent"}, "robotstxt serve: -A: "},
		{[]string{"--store", "ftp://x"}, "robotstxt serve: --store: "},
		{[]string{"--max-questions", "0"}, "robotstxt serve: --max-questions and --history-origins must be positive"},
		{[]string{"--history-origins", "-1"}, "robotstxt serve: --max-questions and --history-origins must be positive"},
		{[]string{"--max-conns", "-1"}, "robotstxt serve: --max-conns must be 0 (no bound) or more"},
		{[]string{"--max-conns-per-client", "-1"}, "robotstxt serve: --max-conns-per-client and the --outbound- bounds must be 0 (no bound) or more"},
		{[]string{"--outbound-rate", "-2"}, "robotstxt serve: --max-conns-per-client and the --outbound- bounds must be 0"},
		{[]string{"--outbound-per-domain", "-1"}, "robotstxt serve: --max-conns-per-client and the --outbound- bounds must be 0"},
		{[]string{"--outbound-bytes-rate", "fast"}, `robotstxt serve: --outbound-bytes-rate: want a size such as 2MiB (0: no bound), not "fast"`},
		{[]string{"--stall-timeout", "0s"}, "robotstxt serve: --stall-timeout must be positive"},
		{[]string{"--max-answer-bytes", "lots"}, `robotstxt serve: --max-answer-bytes: want a positive size such as 128MiB, not "lots"`},
		{[]string{"--max-answer-bytes", "0"}, "robotstxt serve: --max-answer-bytes: want a positive size"},
		{[]string{"--max-inflight-bytes", "1M"}, "robotstxt serve: --max-inflight-bytes: want a size of at least 45MiB"},
		{[]string{"--history-ttl", "-1h"}, "robotstxt serve: --history-ttl must be 0 (no history) or more"},
		{[]string{"--allowed-hosts", "http://robots.example/"}, `robotstxt serve: --allowed-hosts "http://robots.example/": want a host name`},
	} {
		code, out, stderr := runCmd(t, "", append([]string{"serve"}, tt.args...)...)
		if code != 2 || out != "" || !strings.HasPrefix(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", tt.args, code, out, stderr, tt.want)
		}
	}
	code, _, stderr := runCmd(t, "", "serve", "-h")
	if code != 0 || !strings.Contains(stderr, "--allow-private") {
		t.Errorf("-h: %d %q", code, stderr)
	}
}

func TestServeAddressInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	code, _, stderr := runCmd(t, "", "serve", "--store", "memory", "--addr", ln.Addr().String())
	if code != 2 || !strings.HasPrefix(stderr, "robotstxt serve: --addr: ") {
		t.Errorf("exit %d, %q", code, stderr)
	}
	// The help says what the exit status is (issue 35 item 6: it said 1).
	_, _, help := runCmd(t, "", "serve", "-h")
	if !containsWords(help, "2 when the service could not run (bad usage, a store that cannot be opened, the address in use") {
		t.Errorf("serve -h does not say that a busy address exits 2:\n%s", help)
	}
}

// post sends a JSON body to the page's API, with Host host when not "".
func servePost(t *testing.T, u, host, body string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest("POST", u, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// TestServeLimits: the limits' flags reach the server, and each refusal
// names its flag.
func TestServeLimits(t *testing.T) {
	useTempCache(t)
	t.Setenv("ROBOTSTXT_TOKEN", "")
	page, _, _ := startServe(t, "--addr", "127.0.0.1:0", "--store", "memory", "--log-level", "error",
		"--max-questions", "4", "--max-answer-bytes", "2K")
	if code, body := servePost(t, page+"v1/check", "", `{"robots": "", "urls": ["/a", "/b"], "crawlers": ["Googlebot", "Bingbot"]}`); code != 200 {
		t.Errorf("4 questions: %d %s", code, body)
	}
	code, body := servePost(t, page+"v1/check", "", `{"robots": "", "urls": ["/a", "/b", "/c"], "crawlers": ["Googlebot", "Bingbot"]}`)
	if code != 413 || !strings.Contains(string(body), "--max-questions") {
		t.Errorf("6 questions: %d %s", code, body)
	}
	code, body = servePost(t, page+"v1/check", "", `{"robots": "", "urls": ["/`+strings.Repeat("a", 3000)+`"]}`)
	if code != 413 || !strings.Contains(string(body), "--max-answer-bytes") {
		t.Errorf("a 6 KB answer: %d %s", code, body)
	}
}

// TestServeHosts: a Host that is not the server's is refused (421) unless
// --allowed-hosts names it.
func TestServeHosts(t *testing.T) {
	useTempCache(t)
	t.Setenv("ROBOTSTXT_TOKEN", "")
	page, _, _ := startServe(t, "--addr", "127.0.0.1:0", "--store", "memory", "--log-level", "error", "--allowed-hosts", "robots.example, other.example:8443")
	u, _ := url.Parse(page)
	check := `{"robots": "", "urls": ["/"]}`
	for host, want := range map[string]int{
		"":                             200,
		"localhost:" + u.Port():        200,
		"robots.example":               200,
		"other.example:8443":           200,
		"other.example":                421,
		"attacker.example:" + u.Port(): 421,
	} {
		if code, body := servePost(t, page+"v1/check", host, check); code != want {
			t.Errorf("Host %q: %d, want %d: %s", host, code, want, body)
		}
	}
	for addr, want := range map[string]string{
		"robots.internal:8080": "robots.internal:8080",
		"127.0.0.1:8080":       "",
		":8080":                "",
		"localhost:8080":       "",
		"robots.internal:0":    "",
	} {
		if got := strings.Join(addrHosts(addr), ","); got != want {
			t.Errorf("addrHosts(%q) = %q, want %q", addr, got, want)
		}
	}
}

// TestServeHistoryOff: --history-ttl 0 keeps no history.
func TestServeHistoryOff(t *testing.T) {
	useTempCache(t)
	t.Setenv("ROBOTSTXT_TOKEN", "")
	s := newSite(t, 200, "User-agent: *\nDisallow: /private\n")
	page, _, _ := startServe(t, "--addr", "127.0.0.1:0", "--store", "memory", "--allow-private", "--log-level", "error", "--history-ttl", "0")
	if code, body := httpGet(t, page+"v1/fetch?url="+url.QueryEscape(s.URL)); code != 200 {
		t.Fatalf("fetch: %d %s", code, body)
	}
	if code, body := httpGet(t, page+"v1/history?origin="+url.QueryEscape(s.URL)); code != 200 || strings.Contains(string(body), "fetched_at") {
		t.Errorf("history: %d %s", code, body)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "512": 512, "2K": 2048, "2KiB": 2048, "2kb": 2048, "128MiB": 128 << 20, "128M": 128 << 20, "1G": 1 << 30, " 3 MiB ": 3 << 20, "7B": 7} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("%q: %d %v, want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "x", "1.5M", "-1", "5i", "M", "1T", "99999999999G"} {
		if n, err := parseSize(in); err == nil {
			t.Errorf("%q: %d, want an error", in, n)
		}
	}
}
