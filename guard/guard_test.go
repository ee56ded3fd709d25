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

func (m *memSink) Record(d *Decision) {
	m.mu.Lock()
	m.ds = append(m.ds, *d)
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

var _ = time.Second
