package main

import (
	"net/http"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
)

// TestGuardTraefikHeaders: Traefik's ForwardAuth asks GET /v1/decide with
// the original request in X-Forwarded-Method, -Uri, -Host, -Proto and
// -For, and the client's header fields. Traefik is not packaged by
// Debian: these are the requests it sends, in Go.
func TestGuardTraefikHeaders(t *testing.T) {
	site := newUpstreamSite(t, frontendRobots)
	g, log := startDecider(t, site)
	traefik := func(method, uri, ua string) (int, http.Header) {
		code, h, _ := ask(t, "GET", g.decide+"/v1/decide", "User-Agent: "+ua, "X-Forwarded-Method: "+method,
			"X-Forwarded-Uri: "+uri, "X-Forwarded-Host: www.example.com", "X-Forwarded-Proto: https",
			"X-Forwarded-For: 198.51.100.4")
		return code, h
	}
	if code, _ := traefik("POST", "/private/x?a=1", gptbotUA); code != 403 {
		t.Errorf("GPTBot POST /private/x: %d, want 403", code)
	}
	if code, _ := traefik("GET", "/public/a", gptbotUA); code != 200 {
		t.Errorf("GPTBot /public/a: %d, want 200", code)
	}
	if code, h := traefik("GET", "/private/y", "CCBot/2.0"); code != 402 || h.Get("crawler-price") != "USD 0.01" {
		t.Errorf("CCBot /private/y: %d, price %q; want 402, USD 0.01", code, h.Get("crawler-price"))
	}
	if code, _ := traefik("GET", "/robots.txt", gptbotUA); code != 200 {
		t.Errorf("/robots.txt: %d, want 200", code)
	}
	ds := waitDecisions(t, log, 4)
	d := ds[0]
	if d.Method != "POST" || d.Path != "/private/x?a=1" || d.Host != "www.example.com" || d.Addr.String() != "198.51.100.4" {
		t.Errorf("the decision: %s %s host %q from %v; want POST /private/x?a=1, www.example.com, 198.51.100.4", d.Method, d.Path, d.Host, d.Addr)
	}
	if len(site.paths()) != 0 {
		t.Errorf("the decision endpoint asked the site for %v", site.paths())
	}
}

// TestGuardEnvoyHeaders: Envoy's HTTP ext_authz asks with the original
// method at path_prefix + the original path and query, with the original
// Host and the allowed headers (X-Forwarded-For from a trusted Envoy).
// Envoy is not packaged by Debian: these are the requests it sends, in Go.
func TestGuardEnvoyHeaders(t *testing.T) {
	site := newUpstreamSite(t, frontendRobots)
	g, log := startDecider(t, site)
	if code, _, _ := ask(t, "DELETE", g.decide+"/v1/decide/private/x?q=%2F", "Host: shop.example.com", "User-Agent: "+gptbotUA,
		"X-Forwarded-For: 198.51.100.5"); code != 403 {
		t.Errorf("Envoy, GPTBot DELETE /private/x: %d, want 403", code)
	}
	if code, _, _ := ask(t, "HEAD", g.decide+"/v1/decide/public/a", "User-Agent: "+gptbotUA); code != 200 {
		t.Errorf("Envoy, GPTBot HEAD /public/a: %d, want 200", code)
	}
	code, h, _ := ask(t, "GET", g.decide+"/v1/decide/slow/a", "User-Agent: Bingbot/2.0")
	code2, h2, _ := ask(t, "GET", g.decide+"/v1/decide/slow/b", "User-Agent: Bingbot/2.0")
	if code != 200 || code2 != 429 || h2.Get("Retry-After") == "" || h.Get("Retry-After") != "" {
		t.Errorf("Envoy, Bingbot twice within its Crawl-delay: %d then %d (Retry-After %q); want 200 then 429 with Retry-After", code, code2, h2.Get("Retry-After"))
	}
	ds := waitDecisions(t, log, 4)
	d := ds[0]
	if d.Method != "DELETE" || d.Path != "/private/x?q=%2F" || d.Host != "shop.example.com" || d.Addr.String() != "198.51.100.5" {
		t.Errorf("the decision: %s %s host %q from %v; want DELETE /private/x?q=%%2F, shop.example.com, 198.51.100.5", d.Method, d.Path, d.Host, d.Addr)
	}
}

// TestGuardDecideRefusesBadForwards: a forwarded request-target that is
// not a path, one over 8 KiB, or a method that is not a token is a 400,
// not a decision; the endpoint's neighbours answer as documented.
func TestGuardDecideRefusesBadForwards(t *testing.T) {
	site := newUpstreamSite(t, frontendRobots)
	g, log := startDecider(t, site)
	for _, hdr := range [][]string{
		{"X-Forwarded-Uri: http://elsewhere.example/x"},
		{"X-Original-URI: " + "/" + strings.Repeat("a", 9000)},
		{"X-Forwarded-Method: GET /x"},
		{"X-Original-URI: x"},
	} {
		if code, _, body := ask(t, "GET", g.decide+"/v1/decide", append(hdr, "User-Agent: "+gptbotUA)...); code != 400 || !strings.HasPrefix(body, "robotstxt guard: ") {
			t.Errorf("%.60q: %d %q, want 400", hdr, code, body)
		}
	}
	if code, _, body := ask(t, "GET", g.decide+"/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("/healthz: %d %q", code, body)
	}
	for _, p := range []string{"/", "/metrics", "/v1/decidex"} {
		if code, _, _ := ask(t, "GET", g.decide+p); code != 404 {
			t.Errorf("%s: %d, want 404 (no --metrics)", p, code)
		}
	}
	if ds := readDecisions(t, log); len(ds) != 0 {
		t.Errorf("refused checks were decided: %+v", ds)
	}
}

// TestGuardDecideClientAddr: the decision endpoint judges the client that
// clientip.Of names (its table is clientip's TestOf): from the default
// trusted loopback peer, X-Forwarded-For read from the right past the
// trusted hops, else X-Real-IP; with --trusted-proxy none, or a list
// without the peer, the headers are the client's own words and the peer
// is judged. A bad list is refused with the entry named.
func TestGuardDecideClientAddr(t *testing.T) {
	site := newUpstreamSite(t, frontendRobots)
	g, log := startDecider(t, site) // --trusted-proxy: the default, loopback
	decide := func(g *runningGuard, hdr ...string) {
		t.Helper()
		if code, _, _ := ask(t, "GET", g.decide+"/v1/decide/private/x", append(hdr, "User-Agent: "+gptbotUA)...); code != 403 {
			t.Errorf("%q: %d, want 403", hdr, code)
		}
	}
	decide(g, "X-Forwarded-For: 198.51.100.1, 192.0.2.7, 127.0.0.9")
	decide(g, "X-Real-IP: 192.0.2.8")
	decide(g, "X-Forwarded-For: [2001:db8::7]:443")
	decide(g, "X-Forwarded-For: 192.0.2.7, junk")
	var got []string
	for _, d := range waitDecisions(t, log, 4) {
		got = append(got, d.Addr.String())
	}
	if want := "192.0.2.7 192.0.2.8 2001:db8::7 127.0.0.1"; strings.Join(got, " ") != want {
		t.Errorf("trusted loopback peer: clients %v, want %s", got, want)
	}

	for _, list := range []string{"none", "10.0.0.0/8, 2001:db8::/32"} {
		dir := t.TempDir()
		log2 := filepath.Join(dir, "decisions.jsonl")
		g2 := startGuard(t, "--decide-only", "--upstream", site.URL, "--policy", writeFile(t, dir, "guard.toml", frontendPolicy),
			"--dns=false", "--decisions", log2, "--trusted-proxy", list)
		decide(g2, "X-Forwarded-For: 192.0.2.7")
		decide(g2, "X-Real-IP: 192.0.2.8")
		for _, d := range waitDecisions(t, log2, 2) {
			if d.Addr != netip.MustParseAddr("127.0.0.1") {
				t.Errorf("--trusted-proxy %q: an untrusted peer's header was believed: client %v", list, d.Addr)
			}
		}
	}
	var out, errb strings.Builder
	if code := run([]string{"guard", "--decide-only", "--upstream", site.URL, "--trusted-proxy", "10.0.0.0/8,nope"}, strings.NewReader(""), &out, &errb); code == 0 || !strings.Contains(errb.String(), `--trusted-proxy: "nope"`) {
		t.Errorf("a bad --trusted-proxy: exit %d, %q", code, errb.String())
	}
}

// TestGuardMetrics: with --metrics, /metrics of the decide address counts
// the decisions by crawler, outcome and action.
func TestGuardMetrics(t *testing.T) {
	site := newUpstreamSite(t, frontendRobots)
	dir := t.TempDir()
	g := startGuard(t, "--upstream", site.URL, "--mode", "enforce", "--dns=false", "--decide-addr", "127.0.0.1:0", "--metrics",
		"--decisions", filepath.Join(dir, "d.jsonl"))
	if code, _, _ := ask(t, "GET", g.proxy+"/private/x", "User-Agent: "+gptbotUA); code != 403 {
		t.Fatalf("proxy: %d, want 403", code)
	}
	if code, _, _ := ask(t, "GET", g.decide+"/v1/decide", "X-Original-URI: /private/x", "User-Agent: "+gptbotUA); code != 403 {
		t.Fatalf("decide: %d, want 403", code)
	}
	_, _, body := ask(t, "GET", g.decide+"/metrics")
	want := `robotstxt_guard_decisions_total{action="403",crawler="GPTBot",outcome="disallowed-unverified"} 2`
	if !strings.Contains(body, want) {
		t.Errorf("/metrics lacks %s:\n%.2000s", want, body)
	}
}

// TestGuardUsageErrors: the flags that cannot go together, and values
// that are wrong, stop the guard with one line and exit 2.
func TestGuardUsageErrors(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.toml", "mode = \"enforce\"\nprice = \"1 euro\"\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{}, "give --upstream URL"},
		{[]string{"--upstream", "ftp://x"}, "--upstream: want an http:// or https:// URL"},
		{[]string{"--upstream", "http://127.0.0.1:3000/app"}, "--upstream: \"http://127.0.0.1:3000/app\": want a site's root"},
		{[]string{"--upstream", "http://127.0.0.1:1", "--mode", "block"}, "--mode: want log or enforce"},
		{[]string{"--decide-only"}, "--decide-only needs the robots.txt"},
		{[]string{"--decide-only", "--robots", "x", "--decide-addr", ":0"}, "--decide-addr is for the proxy"},
		{[]string{"--upstream", "http://127.0.0.1:1", "--metrics"}, "give --decide-addr"},
		{[]string{"--upstream", "http://127.0.0.1:1", "--trusted-proxy", "everyone"}, "--trusted-proxy:"},
		{[]string{"--upstream", "http://127.0.0.1:1", "--robots", filepath.Join(dir, "none.txt")}, "--robots:"},
		{[]string{"--upstream", "http://127.0.0.1:1", "--robots-every", "0s"}, "--robots-every must be positive"},
		{[]string{"--decide-only", "--robots", bad, "--policy", bad}, "bad.toml:2:"},
		{[]string{"--upstream", "http://127.0.0.1:1", "extra"}, `unexpected argument "extra"`},
	} {
		code, out, stderr := runCmd(t, "", append([]string{"guard"}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 || out != "" {
			t.Errorf("guard %q: exit %d, %q; want 2 and one line with %q", tc.args, code, stderr, tc.want)
		}
	}
}
