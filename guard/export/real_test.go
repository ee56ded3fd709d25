package export

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
)

// freePort returns a free loopback port.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// ask sends one raw GET (the URI exactly as given) and returns the status.
func ask(addr, ua, uri string) (int, error) {
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: example.com\r\nUser-Agent: %s\r\nConnection: close\r\n\r\n", uri, ua)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// waitUp waits until addr accepts connections.
func waitUp(t *testing.T, addr string, cmd *exec.Cmd, logf string) {
	t.Helper()
	for i := 0; i < 100; i++ {
		if c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond); err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	b, _ := os.ReadFile(logf)
	t.Fatalf("%s did not start: %s", cmd.Path, b)
}

// TestRealTargets starts nginx, HAProxy and Caddy (where installed) on
// a free loopback port, each with an export and a loopback upstream
// that answers 200, and asks them a sample of the corpus's questions
// over HTTP: 403 where the guard refuses, 200 where it lets through.
// Anubis is not installed here: its export is checked by the
// interpreter and the schema check of TestExportsAgree only.
func TestRealTargets(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real servers")
	}
	up := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) })}
	ul, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go up.Serve(ul)
	defer up.Close()
	upstream := ul.Addr().String()

	qs := loadQuestions(t)
	// A sample: Google's conformance questions (one file each), and the
	// files of every 400th corpus question, at most 40 of them.
	byFile := map[string][]question{}
	var files []string
	for i, q := range qs {
		k := q.file
		if k == "" {
			k = "inline:" + string(q.body)
		} else if i%400 != 0 || len(files) >= 40+countInline(files) {
			if _, ok := byFile[k]; !ok {
				continue
			}
		}
		if _, ok := byFile[k]; !ok {
			files = append(files, k)
		}
		byFile[k] = append(byFile[k], q)
	}
	// The rest of the chosen corpus files' questions.
	for _, q := range qs {
		if q.file == "" {
			continue
		}
		if g, ok := byFile[q.file]; ok && !containsQ(g, q) {
			byFile[q.file] = append(byFile[q.file], q)
		}
	}
	for _, tg := range []Target{Nginx, HAProxy, Caddy} {
		bin := string(tg)
		path, ok := findServer(bin)
		if !ok {
			t.Logf("%s is not installed: skipped", bin)
			continue
		}
		t.Run(bin, func(t *testing.T) {
			asked, agree, warned, blocked := 0, 0, 0, 0
			deadline := time.Now().Add(4 * time.Minute)
			for _, f := range files {
				if time.Now().After(deadline) {
					break
				}
				group := byFile[f]
				text, ws, err := CompileInput(tg, Input{Robots: group[0].body, NamedTokens: true})
				if err != nil {
					t.Fatal(err)
				}
				ref := newReference(group[0].body, true)
				ix := indexWarnings(tg, ws)
				in, err := readExport(tg, text)
				if err != nil {
					t.Fatal(err)
				}
				addr, stop := startTarget(t, tg, path, text, upstream)
				for _, q := range group {
					uri := requestURI(q.url)
					// URIs over 4 KiB pass the servers' request
					// limits (nginx answers 414 over 8 KiB, HAProxy
					// 400 over its buffer): the interpreter asks them.
					if !robotstxt.ValidToken(q.ua) || !sendable(uri) || len(uri) > 4096 {
						continue
					}
					for _, ua := range userAgents(q.ua) {
						want, refLine := ref.blocked(ua, uri)
						_, expLine := in.verdictOf(ua, uri)
						st, err := ask(addr, ua, uri)
						if err != nil {
							t.Errorf("%s %q: %v", clip(f, 40), uri, err)
							continue
						}
						asked++
						if want {
							blocked++
						}
						got := st == 403
						if st != 403 && st != 200 {
							t.Errorf("%s: %q %q: status %d", clip(f, 40), ua, uri, st)
							continue
						}
						if got == want {
							agree++
						} else if ix.covers(ref, ua, uri, refLine, expLine) != "" {
							warned++
						} else {
							t.Errorf("%s: %s: UA %q %q: %d, the guard says blocked=%v (line %d)", bin, clip(f, 40), ua, uri, st, want, refLine)
						}
					}
				}
				stop()
			}
			t.Logf("%s: %d robots.txt, %d requests over HTTP (%d refused by the guard), %d agree, %d differ under a warning",
				bin, len(files), asked, blocked, agree, warned)
			if asked < 100 || blocked == 0 {
				t.Errorf("%s: too few questions asked (%d, %d blocked)", bin, asked, blocked)
			}
		})
	}
}

func countInline(files []string) int {
	n := 0
	for _, f := range files {
		if strings.HasPrefix(f, "inline:") {
			n++
		}
	}
	return n
}

func containsQ(g []question, q question) bool {
	for _, x := range g {
		if x.ua == q.ua && x.url == q.url {
			return true
		}
	}
	return false
}

// startTarget writes a configuration around export text and starts the
// target; stop ends it.
func startTarget(t *testing.T, tg Target, bin string, text []byte, upstream string) (addr string, stop func()) {
	t.Helper()
	dir := t.TempDir()
	port := freePort(t)
	addr = fmt.Sprintf("127.0.0.1:%d", port)
	exp := filepath.Join(dir, "export.conf")
	if err := os.WriteFile(exp, text, 0o644); err != nil {
		t.Fatal(err)
	}
	logf := filepath.Join(dir, "log")
	var cmd *exec.Cmd
	switch tg {
	case Nginx:
		conf := fmt.Sprintf(`daemon off;
master_process off;
worker_processes 1;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path %[1]s;
    proxy_temp_path %[1]s;
    fastcgi_temp_path %[1]s;
    uwsgi_temp_path %[1]s;
    scgi_temp_path %[1]s;
    include %[2]s;
    server {
        listen %[3]s;
        location / {
%[5]s            proxy_pass http://%[4]s;
        }
    }
}
`, dir, exp, addr, upstream, nginxIfs(text))
		cf := filepath.Join(dir, "nginx.conf")
		os.WriteFile(cf, []byte(conf), 0o644)
		cmd = exec.Command(bin, "-p", dir, "-c", cf, "-e", filepath.Join(dir, "error.log"))
	case HAProxy:
		conf := fmt.Sprintf(`global
    maxconn 100
defaults
    mode http
    timeout connect 2s
    timeout client 5s
    timeout server 5s
frontend fe
    bind %s
%s
    default_backend be
backend be
    server up %s
`, addr, indent(string(text)), upstream)
		cf := filepath.Join(dir, "haproxy.cfg")
		os.WriteFile(cf, []byte(conf), 0o644)
		cmd = exec.Command(bin, "-db", "-f", cf)
	case Caddy:
		conf := fmt.Sprintf(`{
	admin off
	auto_https off
}
%s
http://:%d {
	bind 127.0.0.1
	import robotstxt_guard
	reverse_proxy %s
}
`, string(text), port, upstream)
		cf := filepath.Join(dir, "Caddyfile")
		os.WriteFile(cf, []byte(conf), 0o644)
		cmd = exec.Command(bin, "run", "--adapter", "caddyfile", "--config", cf)
		cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	}
	lf, _ := os.Create(logf)
	cmd.Stdout, cmd.Stderr = lf, lf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	waitUp(t, addr, cmd, logf)
	return addr, func() {
		cmd.Process.Kill()
		<-done
		lf.Close()
	}
}

// nginxIfs returns the if statements an nginx export's header asks for.
func nginxIfs(text []byte) string {
	var b strings.Builder
	for _, l := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(l, "#     if (") {
			b.WriteString("            " + strings.TrimPrefix(l, "#     ") + "\n")
		}
	}
	return b.String()
}

// TestRealActions starts each installed target with an export of each
// blocking action and checks the answer to a disallowed request: its
// status, and the header it carries.
func TestRealActions(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real servers")
	}
	up := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) })}
	ul, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go up.Serve(ul)
	defer up.Close()
	body := []byte("user-agent: *\ndisallow: /private/\n")
	for _, tg := range []Target{Nginx, HAProxy, Caddy} {
		bin, ok := findServer(string(tg))
		if !ok {
			t.Logf("%s is not installed: skipped", tg)
			continue
		}
		for _, c := range []struct {
			action     string
			status     int
			hdr, value string
		}{
			{"403", 403, "", ""},
			{"402", 402, "Crawler-Price", "USD 0.01"},
			{"429", 429, "Retry-After", "30"},
		} {
			text, _, err := CompileInput(tg, Input{Robots: body, Action: c.action, RetryAfter: 30, Price: "USD 0.01"})
			if err != nil {
				t.Fatal(err)
			}
			addr, stop := startTarget(t, tg, bin, text, ul.Addr().String())
			st, h, err := askHeader(addr, "GPTBot/1.0", "/private/x", c.hdr)
			stop()
			if err != nil || st != c.status || h != c.value {
				t.Errorf("%s, action %s: %d %s=%q (%v); want %d %q", tg, c.action, st, c.hdr, h, err, c.status, c.value)
			}
		}
	}
}

// findServer finds a server's binary in PATH or /usr/sbin.
func findServer(bin string) (string, bool) {
	if p, err := exec.LookPath(bin); err == nil {
		return p, true
	}
	if _, err := os.Stat("/usr/sbin/" + bin); err == nil {
		return "/usr/sbin/" + bin, true
	}
	return "", false
}

// askHeader is ask, returning also the value of header name.
func askHeader(addr, ua, uri, name string) (int, string, error) {
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		return 0, "", err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: example.com\r\nUser-Agent: %s\r\nConnection: close\r\n\r\n", uri, ua)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0, "", err
	}
	resp.Body.Close()
	v := ""
	if name != "" {
		v = resp.Header.Get(name)
	}
	return resp.StatusCode, v, nil
}

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString("    " + l + "\n")
	}
	return b.String()
}
