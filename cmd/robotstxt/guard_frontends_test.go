package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/guard"
)

// guardDocSnippet returns the text of the first code block of
// docs/guard.md fenced as lang (```nginx), under the heading that starts
// with heading: the configuration the documentation shows is the one the
// tests run.
func guardDocSnippet(t *testing.T, heading, lang string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "guard.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	i := strings.Index(text, "\n"+heading)
	if i < 0 {
		t.Fatalf("docs/guard.md has no heading %q", heading)
	}
	text = text[i:]
	start := strings.Index(text, "\n```"+lang+"\n")
	if start < 0 {
		t.Fatalf("docs/guard.md: no ```%s block under %q", lang, heading)
	}
	text = text[start+len("\n```"+lang+"\n"):]
	end := strings.Index(text, "\n```\n")
	if end < 0 {
		t.Fatalf("docs/guard.md: the ```%s block under %q does not end", lang, heading)
	}
	return text[:end+1]
}

// needBinary returns the path of a front server's binary; without it the
// test is skipped outside CI and fails in CI (scripts/test-deps.sh
// installs it).
func needBinary(t *testing.T, name, pkg string) string {
	t.Helper()
	for _, p := range []string{name, "/usr/sbin/" + name} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is not installed (apt-get install %s; scripts/test-deps.sh does)", name, pkg)
	}
	t.Skipf("%s is not installed (apt-get install %s)", name, pkg)
	return ""
}

// startProcess runs a front server until the test ends.
func startProcess(t *testing.T, dir string, env []string, name string, args ...string) *syncBuffer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("%s: %v", name, err)
	}
	t.Cleanup(func() {
		cancel()
		cmd.Wait()
	})
	return out
}

// frontendCase is one request through a front server and what must come
// of it.
type frontendCase struct {
	name, path string
	hdr        []string
	status     int
	body       string // the page's, when passed
	header     [2]string
	reachSite  bool
}

// frontendCases are the requests the nginx and Caddy tests send through
// the front server, and the answers the guard's policy gives them: GPTBot
// refused on a disallowed path (403), the training crawler CCBot asked to
// pay on one (402 with the price), a crawler back before its Crawl-delay
// (429 with Retry-After), and what always passes.
func frontendCases() []frontendCase {
	return []frontendCase{
		{"robots.txt", "/robots.txt", []string{"User-Agent: " + gptbotUA}, 200, frontendRobots, [2]string{}, true},
		{"allowed", "/public/a", []string{"User-Agent: " + gptbotUA}, 200, "page /public/a\n", [2]string{}, true},
		{"disallowed", "/private/x", []string{"User-Agent: " + gptbotUA}, 403, "", [2]string{}, false},
		{"browser", "/private/x", []string{"User-Agent: " + browserUA}, 200, "page /private/x\n", [2]string{}, true},
		{"402", "/private/y", []string{"User-Agent: CCBot/2.0 (https://commoncrawl.org/faq/)"}, 402, "", [2]string{"crawler-price", "USD 0.01"}, false},
		{"first", "/slow/a", []string{"User-Agent: Bingbot/2.0"}, 200, "page /slow/a\n", [2]string{}, true},
		{"429", "/slow/b", []string{"User-Agent: Bingbot/2.0"}, 429, "", [2]string{"Retry-After", ""}, false},
	}
}

const frontendRobots = testRobots + "\nUser-agent: bingbot\nCrawl-delay: 60\nDisallow: /private/\n"

const frontendPolicy = `mode = "enforce"
price = "USD 0.01"
record = "all"

[crawler.CCBot]
disallowed-unverified = "402"

[actions]
over-crawl-delay = "429"
`

// runFrontendCases sends the cases to front (the front server's address)
// and checks each answer and whether the site saw the request.
func runFrontendCases(t *testing.T, front string, site *upstreamSite, extra ...string) {
	t.Helper()
	for _, c := range frontendCases() {
		before := len(site.paths())
		code, h, body := ask(t, "GET", front+c.path, append(c.hdr, extra...)...)
		if code != c.status {
			t.Errorf("%s: %s answered %d, want %d (%q)", c.name, c.path, code, c.status, body)
		}
		if c.status == 200 && body != c.body {
			t.Errorf("%s: %s: body %q, want %q", c.name, c.path, body, c.body)
		}
		if k := c.header[0]; k != "" {
			if v := h.Get(k); v == "" || c.header[1] != "" && v != c.header[1] {
				t.Errorf("%s: %s: %s %q, want %q", c.name, c.path, k, v, c.header[1])
			}
		}
		reached := len(site.paths()) > before
		if c.path == "/robots.txt" {
			reached = site.last() != nil && site.last().URL.Path == "/robots.txt"
		}
		if reached != c.reachSite {
			t.Errorf("%s: %s reached the site: %v, want %v (%v)", c.name, c.path, reached, c.reachSite, site.paths())
		}
	}
}

// startDecider runs robotstxt guard --decide-only for the front servers'
// tests: the site's robots.txt, frontendPolicy, the decisions logged.
func startDecider(t *testing.T, site *upstreamSite) (*runningGuard, string) {
	t.Helper()
	dir := t.TempDir()
	policy := writeFile(t, dir, "guard.toml", frontendPolicy)
	log := filepath.Join(dir, "decisions.jsonl")
	g := startGuard(t, "--decide-only", "--upstream", site.URL, "--policy", policy, "--dns=false", "--decisions", log)
	return g, log
}

// TestGuardNginxSnippet runs Debian's nginx with docs/guard.md's
// auth_request snippet in front of a loopback site, asking robotstxt guard
// --decide-only: each outcome's answer reaches the client (402 and 429
// with their headers, which auth_request alone cannot pass), the site
// never sees a refused request, and the guard judges the client's
// address, from X-Forwarded-For through the trusted nginx.
func TestGuardNginxSnippet(t *testing.T) {
	nginx := needBinary(t, "nginx", "nginx-light")
	site := newUpstreamSite(t, frontendRobots)
	g, log := startDecider(t, site)
	dir := t.TempDir()
	for _, d := range []string{"logs", "tmp"} {
		os.Mkdir(filepath.Join(dir, d), 0o755)
	}
	listen := freePort(t)
	snippet := guardDocSnippet(t, "### nginx", "nginx")
	snippet = strings.NewReplacer("listen 80;", "listen "+listen+";",
		"127.0.0.1:3000", strings.TrimPrefix(site.URL, "http://"),
		"127.0.0.1:9090", strings.TrimPrefix(g.decide, "http://")).Replace(snippet)
	conf := fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log %[1]s/logs/error.log warn;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path %[1]s/tmp/body;
    proxy_temp_path %[1]s/tmp/proxy;
%[2]s}
`, dir, snippet)
	confPath := writeFile(t, dir, "nginx.conf", conf)
	if out, err := exec.Command(nginx, "-t", "-p", dir, "-e", filepath.Join(dir, "logs", "error.log"), "-c", confPath).CombinedOutput(); err != nil {
		t.Fatalf("nginx -t refuses the snippet: %v\n%s\n%s", err, out, conf)
	}
	out := startProcess(t, dir, nil, nginx, "-p", dir, "-e", filepath.Join(dir, "logs", "error.log"), "-c", confPath)
	waitListening(t, listen, 10*time.Second, func() string {
		b, _ := os.ReadFile(filepath.Join(dir, "logs", "error.log"))
		return out.String() + string(b)
	})
	runFrontendCases(t, "http://"+listen, site)

	// The client's address: what it sent in X-Forwarded-For, nginx
	// being a trusted proxy (loopback), not nginx's own.
	if code, _, _ := ask(t, "GET", "http://"+listen+"/private/z", "User-Agent: "+gptbotUA, "X-Forwarded-For: 203.0.113.9"); code != 403 {
		t.Errorf("/private/z: %d, want 403", code)
	}
	ds := waitDecisions(t, log, len(frontendCases())+1)
	last := ds[len(ds)-1]
	if last.Path != "/private/z" || last.Addr.String() != "203.0.113.9" || last.Method != "GET" {
		t.Errorf("the last decision: path %q, address %v, method %q; want /private/z from 203.0.113.9", last.Path, last.Addr, last.Method)
	}
	// A POST is judged as a POST (X-Original-Method).
	ask(t, "POST", "http://"+listen+"/public/p", "User-Agent: "+gptbotUA)
	ds = waitDecisions(t, log, len(frontendCases())+2)
	if d := ds[len(ds)-1]; d.Method != "POST" || d.Path != "/public/p" {
		t.Errorf("a POST through nginx decided as %s %s", d.Method, d.Path)
	}
	checkFrontendDecisions(t, ds)
}

// checkFrontendDecisions checks the decisions the front servers' cases
// left: each outcome once, with the actions the policy names.
func checkFrontendDecisions(t *testing.T, ds []guard.Decision) {
	t.Helper()
	var got []string
	for _, d := range ds[:len(frontendCases())] {
		got = append(got, d.Outcome.String()+"/"+d.Action.String())
	}
	want := []string{"rules-path/allow", "pass/allow", "disallowed-unverified/403", "not-crawler/allow",
		"disallowed-unverified/402", "pass/allow", "over-crawl-delay/429"}
	if !slices.Equal(got, want) {
		t.Errorf("decisions:\n got %v\nwant %v", got, want)
	}
}

// TestGuardCaddySnippet runs Debian's Caddy with docs/guard.md's
// forward_auth snippet in front of a loopback site, asking robotstxt guard
// --decide-only: the same cases as nginx's, the guard's answers passed to
// the client as they are.
func TestGuardCaddySnippet(t *testing.T) {
	caddy := needBinary(t, "caddy", "caddy")
	site := newUpstreamSite(t, frontendRobots)
	g, log := startDecider(t, site)
	dir := t.TempDir()
	listen := freePort(t)
	snippet := guardDocSnippet(t, "### Caddy", "caddy")
	snippet = strings.NewReplacer("www.example.com {", "http://"+listen+" {",
		"127.0.0.1:3000", strings.TrimPrefix(site.URL, "http://"),
		"127.0.0.1:9090", strings.TrimPrefix(g.decide, "http://")).Replace(snippet)
	conf := "{\n\tadmin off\n}\n\n" + snippet
	confPath := writeFile(t, dir, "Caddyfile", conf)
	env := []string{"HOME=" + dir, "XDG_DATA_HOME=" + filepath.Join(dir, "data"), "XDG_CONFIG_HOME=" + filepath.Join(dir, "config")}
	out := startProcess(t, dir, env, caddy, "run", "--config", confPath, "--adapter", "caddyfile")
	waitListening(t, listen, 15*time.Second, out.String)
	runFrontendCases(t, "http://"+listen, site)
	ds := waitDecisions(t, log, len(frontendCases()))
	checkFrontendDecisions(t, ds)
	if d := ds[2]; d.Path != "/private/x" || d.Addr.String() != "127.0.0.1" {
		t.Errorf("decision through Caddy: path %q from %v", d.Path, d.Addr)
	}
}
