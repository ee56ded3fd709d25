package guard

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/verify"
)

const testRobots = `User-agent: GPTBot
Disallow: /private
Allow: /

User-agent: CCBot
Content-Usage: train-ai=n
Allow: /

User-agent: *
Disallow: /admin
Crawl-delay: 5

Sitemap: https://example.com/maps/sitemap.xml
`

// Browser and crawler User-Agent headers.
const (
	uaBrowser   = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36"
	uaGPTBot    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
	uaGooglebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	uaCCBot     = "CCBot/2.0 (https://commoncrawl.org/faq/)"
	uaClaude    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"
)

// fakeIdentity answers by address: verified for those in ok, spoofed
// for those in bad, else unverified. It counts its calls.
type fakeIdentity struct {
	ok, bad map[netip.Addr]bool
	calls   atomic.Int64
}

func (f *fakeIdentity) Identify(_ context.Context, _ *http.Request, ip netip.Addr, c *robotstxt.Crawler) verify.Evidence {
	f.calls.Add(1)
	e := verify.Evidence{Crawler: c.Name, IP: ip.String(), Outcome: "unverified", Method: verify.MethodNone, Reason: "fake: unknown"}
	switch {
	case f.ok[ip]:
		e.Outcome, e.Method, e.Reason = "verified", verify.MethodRanges, "fake: in its ranges"
	case f.bad[ip]:
		e.Outcome, e.Method, e.Reason = "spoofed", verify.MethodRanges, "fake: outside its ranges"
	}
	return e
}

// memSink keeps the decisions recorded.
type memSink struct {
	mu sync.Mutex
	ds []Decision
}

func (m *memSink) Record(d Decision) {
	m.mu.Lock()
	m.ds = append(m.ds, d)
	m.mu.Unlock()
}

func (m *memSink) all() []Decision {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Decision(nil), m.ds...)
}

// upstream is a real site on loopback that counts what reaches it.
type upstream struct {
	srv  *httptest.Server
	mu   sync.Mutex
	seen []string
}

func (u *upstream) paths() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]string(nil), u.seen...)
}

// site starts the upstream and the guard in front of it, both on
// loopback: the guard's server is a reverse proxy's stand-in (its
// handler calls the upstream through a client).
func site(t *testing.T, o Options) (front *httptest.Server, up *upstream, g *Guard) {
	t.Helper()
	up = &upstream{}
	up.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		up.mu.Lock()
		up.seen = append(up.seen, r.URL.RequestURI())
		up.mu.Unlock()
		io.WriteString(w, "page "+r.URL.Path)
	}))
	t.Cleanup(up.srv.Close)
	g, err := Build(o)
	if err != nil {
		t.Fatal(err)
	}
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, up.srv.URL+r.URL.RequestURI(), nil)
		resp, err := up.srv.Client().Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	})
	front = httptest.NewServer(g.Handler(next))
	t.Cleanup(front.Close)
	return front, up, g
}

// get fetches path from srv as ua, from the address the test claims
// with X-Forwarded-For (the guard trusts loopback in these tests).
func get(t *testing.T, srv *httptest.Server, ua, from, path string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("GET", srv.URL+path, nil)
	req.Host = "example.com"
	req.Header.Set("User-Agent", ua)
	if from != "" {
		req.Header.Set("X-Forwarded-For", from)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	resp.Body = io.NopCloser(strings.NewReader(string(b)))
	return resp
}

var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

var (
	addrVerified = netip.MustParseAddr("192.0.2.10")
	addrSpoofed  = netip.MustParseAddr("198.51.100.7")
	addrUnknown  = netip.MustParseAddr("203.0.113.5")
)

func newFake() *fakeIdentity {
	return &fakeIdentity{ok: map[netip.Addr]bool{addrVerified: true}, bad: map[netip.Addr]bool{addrSpoofed: true}}
}

func enforcePolicy(t *testing.T, text string) *Policy {
	t.Helper()
	p, err := ParsePolicy("test.toml", []byte("mode = \"enforce\"\n"+text))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDecideFirst(t *testing.T) {
	g, err := Build(Options{Robots: NewStatic([]byte(testRobots), ""), Identity: newFake(), TrustedProxies: loopback, Policy: enforcePolicy(t, "")})
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest("GET", "http://example.com/private/x", nil)
	r.Header.Set("User-Agent", uaGPTBot)
	r.RemoteAddr = addrVerified.String() + ":4321"
	d := g.Decide(r)
	if d.Claimed != "GPTBot" || d.Outcome != OutcomeDisallowedVerified || d.Action != Action403 || d.Line != 2 || d.LineText != "Disallow: /private" || d.Status != 403 {
		t.Fatalf("decision %+v", d)
	}
}

func TestVerifiedBlockedNeverReachesUpstream(t *testing.T) {
	for _, tc := range []struct {
		policy string
		status int
		header string
	}{
		{"", 403, ""},
		{"price = \"USD 0.01\"\n[actions]\ndisallowed-verified = \"402\"\n", 402, "USD 0.01"},
	} {
		front, up, _ := site(t, Options{Robots: NewStatic([]byte(testRobots), ""), Identity: newFake(), TrustedProxies: loopback, Policy: enforcePolicy(t, tc.policy)})
		resp := get(t, front, uaGPTBot, addrVerified.String(), "/private/report")
		if resp.StatusCode != tc.status {
			t.Errorf("policy %q: status %d, want %d", tc.policy, resp.StatusCode, tc.status)
		}
		if got := resp.Header.Get("crawler-price"); got != tc.header {
			t.Errorf("policy %q: crawler-price %q, want %q", tc.policy, got, tc.header)
		}
		if seen := up.paths(); len(seen) != 0 {
			t.Errorf("policy %q: the upstream saw %v", tc.policy, seen)
		}
		// The same crawler on an allowed path passes.
		resp = get(t, front, uaGPTBot, addrVerified.String(), "/public/page")
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || string(b) != "page /public/page" {
			t.Errorf("policy %q: allowed path: %d %q", tc.policy, resp.StatusCode, b)
		}
		if seen := up.paths(); len(seen) != 1 || seen[0] != "/public/page" {
			t.Errorf("policy %q: the upstream saw %v, want the allowed path once", tc.policy, seen)
		}
	}
}

func TestUnverifiedClaimOnDisallowedPath(t *testing.T) {
	sink := &memSink{}
	front, up, _ := site(t, Options{Robots: NewStatic([]byte(testRobots), ""), Identity: newFake(), TrustedProxies: loopback, Policy: enforcePolicy(t, ""), Decisions: sink})
	resp := get(t, front, uaGPTBot, addrUnknown.String(), "/private/x")
	if resp.StatusCode != 403 || len(up.paths()) != 0 {
		t.Fatalf("status %d, upstream saw %v", resp.StatusCode, up.paths())
	}
	ds := sink.all()
	if len(ds) != 1 || ds[0].Outcome != OutcomeDisallowedUnverified || ds[0].Identity.Outcome != "unverified" {
		t.Fatalf("decisions %+v", ds)
	}
}

func TestSpoofedClaim(t *testing.T) {
	sink := &memSink{}
	front, up, _ := site(t, Options{Robots: NewStatic([]byte(testRobots), ""), Identity: newFake(), TrustedProxies: loopback, Policy: enforcePolicy(t, ""), Decisions: sink})
	// Googlebot may fetch /page by the file, but the claim is spoofed.
	resp := get(t, front, uaGooglebot, addrSpoofed.String(), "/page")
	if resp.StatusCode != 403 {
		t.Errorf("spoofed claim: status %d, want 403", resp.StatusCode)
	}
	// A spoof action of the policy's choosing.
	front2, up2, _ := site(t, Options{Robots: NewStatic([]byte(testRobots), ""), Identity: newFake(), TrustedProxies: loopback, Policy: enforcePolicy(t, "[actions]\nspoofed = \"429\"\n")})
	resp = get(t, front2, uaGooglebot, addrSpoofed.String(), "/page")
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
		t.Errorf("spoofed claim, policy 429: status %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	// The rules are served to it all the same.
	for _, p := range []string{"/robots.txt", "/.well-known/http-message-signatures-directory", "/maps/sitemap.xml"} {
		if resp := get(t, front, uaGooglebot, addrSpoofed.String(), p); resp.StatusCode != 200 {
			t.Errorf("spoofed claim on %s: status %d, want 200", p, resp.StatusCode)
		}
	}
	if seen := up.paths(); len(seen) != 3 || seen[0] != "/robots.txt" {
		t.Errorf("upstream saw %v, want the three rules paths", seen)
	}
	if len(up2.paths()) != 0 {
		t.Errorf("upstream 2 saw %v", up2.paths())
	}
	ds := sink.all()
	if len(ds) != 4 || ds[0].Outcome != OutcomeSpoofed || ds[0].Identity.Outcome != "spoofed" || ds[1].Outcome != OutcomeRulesPath {
		t.Errorf("decisions %+v", ds)
	}
}

func TestBrowsersAndUnknownClientsPass(t *testing.T) {
	// A policy as strict as it gets for crawlers.
	p := enforcePolicy(t, "price = \"USD 1\"\n[actions]\npass = \"403\"\ndisallowed-unverified = \"402\"\n")
	front, up, _ := site(t, Options{Robots: NewStatic([]byte("User-agent: *\nDisallow: /\n"), ""), Identity: newFake(), TrustedProxies: loopback, Policy: p})
	for _, ua := range []string{uaBrowser, "curl/8.5.0", "", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"} {
		if resp := get(t, front, ua, addrSpoofed.String(), "/admin/x"); resp.StatusCode != 200 {
			t.Errorf("%q: status %d, want 200", ua, resp.StatusCode)
		}
	}
	if len(up.paths()) != 4 {
		t.Errorf("upstream saw %v", up.paths())
	}
	// A crawler under the same policy is refused.
	if resp := get(t, front, uaClaude, addrUnknown.String(), "/page"); resp.StatusCode != 402 {
		t.Errorf("ClaudeBot: status %d", resp.StatusCode)
	}
}

func TestRobotsAlwaysServed(t *testing.T) {
	// Every crawler is refused everything it may be refused, and
	// /robots.txt still reaches everyone.
	p := enforcePolicy(t, "[actions]\npass = \"403\"\ndisallowed-verified = \"403\"\ndisallowed-unverified = \"403\"\nspoofed = \"403\"\n")
	front, _, _ := site(t, Options{Robots: NewStatic([]byte("User-agent: *\nDisallow: /\n"), ""), Identity: newFake(), TrustedProxies: loopback, Policy: p})
	for _, ua := range []string{uaGPTBot, uaGooglebot, uaBrowser, uaCCBot} {
		for _, from := range []netip.Addr{addrVerified, addrSpoofed, addrUnknown} {
			for _, path := range []string{"/robots.txt", "/robots.txt?x=1", "/.well-known/ai.txt"} {
				if resp := get(t, front, ua, from.String(), path); resp.StatusCode != 200 {
					t.Errorf("%s from %v: %s: status %d", ua, from, path, resp.StatusCode)
				}
			}
		}
	}
	if resp := get(t, front, uaGPTBot, addrVerified.String(), "/robots.txt.bak"); resp.StatusCode != 403 {
		t.Errorf("/robots.txt.bak is no rules path: status %d", resp.StatusCode)
	}
}

func TestLogModeBlocksNothingRecordsEverything(t *testing.T) {
	sink := &memSink{}
	front, up, _ := site(t, Options{Robots: NewStatic([]byte(testRobots), "v1"), Identity: newFake(), TrustedProxies: loopback, Decisions: sink})
	reqs := []struct {
		ua, path string
		from     netip.Addr
		would    Action
		outcome  Outcome
	}{
		{uaGPTBot, "/private/a", addrVerified, Action403, OutcomeDisallowedVerified},
		{uaGPTBot, "/private/b", addrUnknown, Action403, OutcomeDisallowedUnverified},
		{uaGooglebot, "/page", addrSpoofed, Action403, OutcomeSpoofed},
		{uaGooglebot, "/page", addrVerified, ActionAllow, OutcomePass},
		{uaGPTBot, "/page", addrVerified, ActionLog, OutcomeOverCrawlDelay}, // its two requests above reached the site
		{uaCCBot, "/page", addrUnknown, ActionLog, OutcomePreferenceRefused},
		{uaGooglebot, "/robots.txt", addrSpoofed, ActionAllow, OutcomeRulesPath},
	}
	for _, rq := range reqs {
		if resp := get(t, front, rq.ua, rq.from.String(), rq.path); resp.StatusCode != 200 {
			t.Errorf("%s %s: status %d in log mode", rq.ua, rq.path, resp.StatusCode)
		}
	}
	get(t, front, uaBrowser, addrUnknown.String(), "/admin")
	if n := len(up.paths()); n != len(reqs)+1 {
		t.Errorf("upstream saw %d requests, want %d", n, len(reqs)+1)
	}
	ds := sink.all()
	if len(ds) != len(reqs) {
		t.Fatalf("%d decisions recorded, want %d (every crawler's)", len(ds), len(reqs))
	}
	for i, rq := range reqs {
		d := ds[i]
		wantAction := ActionLog
		if rq.would == ActionAllow {
			wantAction = ActionAllow
		}
		if d.Outcome != rq.outcome || d.Would != rq.would || d.Action != wantAction || d.Status != 0 || d.Mode != ModeLog || d.Version != "v1" || d.Addr != rq.from {
			t.Errorf("request %d (%s %s): decision %+v", i, rq.ua, rq.path, d)
		}
	}
	if ds[0].Line != 2 || ds[0].LineText != "Disallow: /private" {
		t.Errorf("deciding line %d %q", ds[0].Line, ds[0].LineText)
	}
	if ds[5].Line != 6 || ds[5].LineText != "Content-Usage: train-ai=n" {
		t.Errorf("preference line %d %q", ds[5].Line, ds[5].LineText)
	}
}

func TestPolicyAndRobotsChangeWithoutRestart(t *testing.T) {
	src := NewStatic([]byte(testRobots), "v1")
	front, _, g := site(t, Options{Robots: src, Identity: newFake(), TrustedProxies: loopback})
	if resp := get(t, front, uaGPTBot, addrVerified.String(), "/private/x"); resp.StatusCode != 200 {
		t.Fatalf("log mode: status %d", resp.StatusCode)
	}
	g.SetPolicy(enforcePolicy(t, ""))
	if resp := get(t, front, uaGPTBot, addrVerified.String(), "/private/x"); resp.StatusCode != 403 {
		t.Fatalf("after SetPolicy(enforce): status %d", resp.StatusCode)
	}
	if resp := get(t, front, uaGPTBot, addrVerified.String(), "/open/x"); resp.StatusCode != 200 {
		t.Fatalf("allowed path: status %d", resp.StatusCode)
	}
	src.Set([]byte("User-agent: GPTBot\nDisallow: /open\n"), "v2")
	if resp := get(t, front, uaGPTBot, addrVerified.String(), "/open/x"); resp.StatusCode != 403 {
		t.Fatalf("after the robots.txt change: status %d", resp.StatusCode)
	}
	if resp := get(t, front, uaGPTBot, addrVerified.String(), "/private/x"); resp.StatusCode != 200 {
		t.Fatalf("after the robots.txt change, /private: status %d", resp.StatusCode)
	}
	r := httptest.NewRequest("GET", "/open/x", nil)
	r.Header.Set("User-Agent", uaGPTBot)
	if d := g.Decide(r); d.Version != "v2" || d.Line != 2 {
		t.Fatalf("decision names version %q line %d", d.Version, d.Line)
	}
	g.SetPolicy(nil)
	if resp := get(t, front, uaGPTBot, addrVerified.String(), "/open/x"); resp.StatusCode != 200 {
		t.Fatalf("back to the default (log): status %d", resp.StatusCode)
	}
}

func TestPreferenceRefused(t *testing.T) {
	robots := testRobots + "\nUser-agent: ChatGPT-User\nContent-Signal: ai-input=no, search=yes\nAllow: /\n"
	p := enforcePolicy(t, "price = \"USD 0.05\"\n[actions]\npreference-refused = \"402\"\n")
	front, up, _ := site(t, Options{Robots: NewStatic([]byte(robots), ""), Identity: newFake(), TrustedProxies: loopback, Policy: p})
	resp := get(t, front, uaCCBot, addrUnknown.String(), "/page")
	if resp.StatusCode != 402 || resp.Header.Get("crawler-price") != "USD 0.05" {
		t.Errorf("CCBot under train-ai=n: %d %q", resp.StatusCode, resp.Header.Get("crawler-price"))
	}
	resp = get(t, front, "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot", addrUnknown.String(), "/page")
	if resp.StatusCode != 402 {
		t.Errorf("ChatGPT-User under ai-input=no: %d", resp.StatusCode)
	}
	// GPTBot's group states no preference: it passes.
	if resp := get(t, front, uaGPTBot, addrUnknown.String(), "/page"); resp.StatusCode != 200 {
		t.Errorf("GPTBot: %d", resp.StatusCode)
	}
	if len(up.paths()) != 1 {
		t.Errorf("upstream saw %v", up.paths())
	}
}

func TestOverCrawlDelay(t *testing.T) {
	var now atomic.Int64
	start := time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC)
	now.Store(start.UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()).UTC() }
	p := enforcePolicy(t, "[actions]\nover-crawl-delay = \"429\"\n")
	front, up, _ := site(t, Options{Robots: NewStatic([]byte(testRobots), ""), Identity: newFake(), TrustedProxies: loopback, Policy: p, Now: clock})
	step := func(d time.Duration, want int, retry string) {
		t.Helper()
		now.Add(int64(d))
		resp := get(t, front, uaClaude, addrVerified.String(), "/page")
		if resp.StatusCode != want || resp.Header.Get("Retry-After") != retry {
			t.Errorf("at +%v: %d Retry-After %q, want %d %q", time.Duration(now.Load()-start.UnixNano()), resp.StatusCode, resp.Header.Get("Retry-After"), want, retry)
		}
	}
	// A 429 for another outcome waits the crawl-delay.
	g429, _ := Build(Options{Robots: NewStatic([]byte(testRobots), ""), Policy: enforcePolicy(t, "[actions]\ndisallowed-unverified = \"429\"\n")})
	r := httptest.NewRequest("GET", "/admin/x", nil)
	r.Header.Set("User-Agent", uaClaude)
	if d := g429.Decide(r); d.Status != 429 || d.RetryAfter != 5 {
		t.Errorf("429 on a disallowed path: status %d, Retry-After %d, want 5 (the crawl-delay)", d.Status, d.RetryAfter)
	}
	step(0, 200, "")
	step(time.Second, 429, "4")
	step(1500*time.Millisecond, 429, "3") // 2.5 s since the first: 2.5 s left
	step(3*time.Second, 200, "")
	step(4*time.Second, 429, "1")
	// A request that reaches the site on a disallowed path (log mode)
	// counts as a visit too.
	gLog, _ := Build(Options{Robots: NewStatic([]byte(testRobots), ""), Now: clock})
	for i, want := range []Outcome{OutcomeDisallowedUnverified, OutcomeOverCrawlDelay} {
		r := httptest.NewRequest("GET", []string{"/admin/x", "/page"}[i], nil)
		r.Header.Set("User-Agent", uaClaude)
		if d := gLog.Decide(r); d.Outcome != want || d.Action != ActionLog {
			t.Errorf("log mode, request %d: %s %s, want %s log", i, d.Outcome, d.Action, want)
		}
	}
	// Googlebot ignores crawl-delay: it is never paced.
	for range 3 {
		if resp := get(t, front, uaGooglebot, addrVerified.String(), "/page"); resp.StatusCode != 200 {
			t.Errorf("Googlebot: %d", resp.StatusCode)
		}
	}
	if n := len(up.paths()); n != 5 {
		t.Errorf("upstream saw %d requests, want 5", n)
	}
}

func TestTarpitBounded(t *testing.T) {
	p := enforcePolicy(t, "[actions]\nspoofed = \"tarpit\"\n[tarpit]\nduration = \"3s\"\nmax = 2\n")
	front, up, g := site(t, Options{Robots: NewStatic([]byte(testRobots), ""), Identity: newFake(), TrustedProxies: loopback, Policy: p})
	type res struct {
		status int
		took   time.Duration
	}
	out := make(chan res, 6)
	for range 6 {
		go func() {
			t0 := time.Now()
			resp := get(t, front, uaGooglebot, addrSpoofed.String(), "/page")
			out <- res{resp.StatusCode, time.Since(t0)}
		}()
	}
	fast, slow := 0, 0
	deadline := time.After(20 * time.Second)
	for range 6 {
		select {
		case r := <-out:
			if r.status != 403 {
				t.Errorf("tarpit answered %d", r.status)
			}
			if r.took < time.Second {
				fast++
			} else {
				slow++
			}
			if g.Tarpitted() > 2 {
				t.Errorf("%d connections in the tarpit, cap 2", g.Tarpitted())
			}
		case <-deadline:
			t.Fatal("tarpitted requests never ended")
		}
	}
	if slow != 2 || fast != 4 {
		t.Errorf("%d slow and %d fast answers, want 2 held and 4 at once", slow, fast)
	}
	if len(up.paths()) != 0 {
		t.Errorf("upstream saw %v", up.paths())
	}
}

func TestForwardedForTrustedOnly(t *testing.T) {
	g, err := Build(Options{Robots: NewStatic([]byte(testRobots), ""), TrustedProxies: loopback})
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "203.0.113.9:1234"
	r.Header.Set("X-Forwarded-For", "192.0.2.10")
	if a := g.clientAddr(r); a != netip.MustParseAddr("203.0.113.9") {
		t.Errorf("an untrusted peer's X-Forwarded-For was believed: %v", a)
	}
	r.RemoteAddr = "127.0.0.1:1234"
	r.Header.Set("X-Forwarded-For", "192.0.2.10, 198.51.100.1, 127.0.0.2")
	if a := g.clientAddr(r); a != netip.MustParseAddr("198.51.100.1") {
		t.Errorf("through trusted proxies: %v, want the right-most untrusted address", a)
	}
}

func TestNoRobotsNoVerdict(t *testing.T) {
	src := SourceFunc(func(context.Context, string) (*Rules, error) { return nil, io.ErrUnexpectedEOF })
	g, err := Build(Options{Robots: src, Identity: newFake(), Policy: enforcePolicy(t, "")})
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest("GET", "/private/x", nil)
	r.RemoteAddr = addrVerified.String() + ":1"
	r.Header.Set("User-Agent", uaGPTBot)
	d := g.Decide(r)
	if d.Outcome != OutcomePass || !d.Allowed || d.Action != ActionAllow || !strings.Contains(d.Reason, "no robots.txt in force: unexpected EOF") {
		t.Errorf("decision %+v", d)
	}
	// A spoofed claim is still one.
	r.RemoteAddr = addrSpoofed.String() + ":1"
	if d := g.Decide(r); d.Outcome != OutcomeSpoofed || d.Action != Action403 {
		t.Errorf("spoofed without robots.txt: %+v", d)
	}
	if _, err := Build(Options{}); err == nil {
		t.Error("Build without Robots")
	}
}

func TestSitemapOnAnotherHostIsJudged(t *testing.T) {
	g, _ := Build(Options{Robots: NewStatic([]byte("User-agent: *\nDisallow: /\nSitemap: https://cdn.example.net/maps/s.xml\nSitemap: /local.xml\n"), ""), Policy: enforcePolicy(t, "")})
	for path, want := range map[string]Outcome{
		"/maps/s.xml": OutcomeDisallowedUnverified, // named on another host
		"/local.xml":  OutcomeRulesPath,            // no host: this one
	} {
		r := httptest.NewRequest("GET", "http://example.com"+path, nil)
		r.Header.Set("User-Agent", uaClaude)
		if d := g.Decide(r); d.Outcome != want {
			t.Errorf("%s: %s, want %s", path, d.Outcome, want)
		}
	}
	r := httptest.NewRequest("GET", "http://cdn.example.net/maps/s.xml", nil)
	r.Header.Set("User-Agent", uaClaude)
	if d := g.Decide(r); d.Outcome != OutcomeRulesPath {
		t.Errorf("the sitemap on its host: %s", d.Outcome)
	}
}

func TestRecordActed(t *testing.T) {
	sink := &memSink{}
	g, _ := Build(Options{Robots: NewStatic([]byte(testRobots), ""), Decisions: sink, Policy: enforcePolicy(t, "record = \"acted\"\n")})
	for _, p := range []string{"/page", "/private/x", "/robots.txt"} {
		r := httptest.NewRequest("GET", p, nil)
		r.Header.Set("User-Agent", uaGPTBot)
		g.Decide(r)
	}
	if ds := sink.all(); len(ds) != 1 || ds[0].Path != "/private/x" {
		t.Errorf("recorded %+v, want the one acted on", ds)
	}
}

func TestTarpitFreedWhenClientGoes(t *testing.T) {
	p := enforcePolicy(t, "[actions]\nspoofed = \"tarpit\"\n[tarpit]\nduration = \"60s\"\nmax = 1\n")
	front, _, g := site(t, Options{Robots: NewStatic([]byte(testRobots), ""), Identity: newFake(), TrustedProxies: loopback, Policy: p})
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", front.URL+"/page", nil)
	req.Header.Set("User-Agent", uaGooglebot)
	req.Header.Set("X-Forwarded-For", addrSpoofed.String())
	held := make(chan int, 1)
	go func() {
		time.Sleep(250 * time.Millisecond)
		held <- g.Tarpitted()
	}()
	resp, err := front.Client().Do(req)
	if err == nil {
		// The status came at once; the body is what is slow.
		if resp.StatusCode != 403 {
			t.Errorf("status %d", resp.StatusCode)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	if n := <-held; n != 1 {
		t.Fatalf("%d connections in the tarpit while the client waited, want 1", n)
	}
	deadline := time.Now().Add(10 * time.Second)
	for g.Tarpitted() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the tarpit kept the connection after the client went")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestVerdictInTheCrawlersDialect: each crawler is judged as its engine
// reads the file: its fallback tokens (Googlebot-Image obeys Googlebot's
// group), its dialect (Baidu's first match, not Google's longest).
func TestVerdictInTheCrawlersDialect(t *testing.T) {
	robots := "User-agent: Googlebot\nDisallow: /img\n\nUser-agent: Baiduspider\nAllow: /a\nDisallow: /a/b\n\nUser-agent: *\nAllow: /a\nDisallow: /a/b\n"
	g, _ := Build(Options{Robots: NewStatic([]byte(robots), "")})
	for _, tc := range []struct {
		ua, path string
		allowed  bool
		line     int
	}{
		{"Googlebot-Image/1.0", "/img/x.png", false, 2},
		{"Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)", "/a/b/c", true, 5},
		{uaClaude, "/a/b/c", false, 10},
	} {
		r := httptest.NewRequest("GET", tc.path, nil)
		r.Header.Set("User-Agent", tc.ua)
		d := g.Decide(r)
		if d.Allowed != tc.allowed || d.Line != tc.line {
			t.Errorf("%s %s: allowed %v line %d (%s), want %v line %d", tc.ua, tc.path, d.Allowed, d.Line, d.Reason, tc.allowed, tc.line)
		}
	}
}
