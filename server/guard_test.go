package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/store"
)

// One address of every refused class, IPv4, IPv6 and IPv4-mapped.
var refused = []struct{ addr, class string }{
	{"127.0.0.1", "loopback"},
	{"127.255.0.9", "loopback"},
	{"::1", "loopback"},
	{"::ffff:127.0.0.1", "loopback"},
	{"10.1.2.3", "private"},
	{"172.16.0.1", "private"},
	{"192.168.1.1", "private"},
	{"fc00::1", "private"},
	{"fd12:3456::1", "private"},
	{"::ffff:10.0.0.1", "private"},
	{"169.254.10.10", "link-local"},
	{"fe80::1", "link-local"},
	{"100.64.0.1", "cgnat"},
	{"100.127.255.254", "cgnat"},
	{"::ffff:100.64.0.1", "cgnat"},
	{"224.0.0.1", "multicast"},
	{"239.1.2.3", "multicast"},
	{"ff02::1", "multicast"},
	{"0.0.0.0", "unspecified"},
	{"0.1.2.3", "unspecified"},
	{"::", "unspecified"},
	{"169.254.169.254", "cloud metadata"},
	{"::ffff:169.254.169.254", "cloud metadata"},
	{"fd00:ec2::254", "cloud metadata"},
	{"255.255.255.255", "reserved"},
	{"fec0::1", "site-local"},
	{"feff:1::2", "site-local"},
	// IPv6 addresses that carry an IPv4 address a router may reach: the
	// IPv4 address's class.
	{"64:ff9b::10.0.0.1", "private"},   // NAT64, well-known prefix
	{"64:ff9b::127.0.0.1", "loopback"}, //
	{"64:ff9b::169.254.169.254", "cloud metadata"},
	{"64:ff9b::100.64.0.1", "cgnat"},                     //
	{"64:ff9b:1::8.8.8.8", "private"},                    // NAT64, local-use prefix: all of it
	{"2002:a00:1::1", "private"},                         // 6to4 of 10.0.0.1
	{"2002:7f00:1:5::1", "loopback"},                     // 6to4 of 127.0.0.1
	{"2002:a9fe:a9fe::", "cloud metadata"},               // 6to4 of 169.254.169.254
	{"2001:0:a00:1::1", "private"},                       // Teredo, server 10.0.0.1
	{"2001:0:4136:e378:8000:63bf:f5ff:fffe", "private"},  // Teredo, client 10.0.0.1
	{"2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback"}, // Teredo, client 127.0.0.1
}

func TestAddressClass(t *testing.T) {
	for _, c := range refused {
		if got := AddressClass(netip.MustParseAddr(c.addr)); got != c.class {
			t.Errorf("%s: class %q, want %q", c.addr, got, c.class)
		}
	}
	for _, public := range []string{"93.184.216.34", "8.8.8.8", "100.128.0.1", "2606:4700::1111", "::ffff:8.8.8.8", "172.32.0.1",
		"64:ff9b::8.8.8.8", "2002:808:808::1", "2001:0:4136:e378:8000:63bf:f7f7:f7f7", "2001:1::1", "fe00::1"} {
		if got := AddressClass(netip.MustParseAddr(public)); got != "" {
			t.Errorf("%s: class %q, want public", public, got)
		}
	}
}

// TestGuardRefusesEachClass dials every refused address: the guard refuses
// it before any packet is sent, naming the class.
func TestGuardRefusesEachClass(t *testing.T) {
	g := &Guard{}
	for _, c := range refused {
		t.Run(c.addr, func(t *testing.T) {
			conn, err := g.DialContext(context.Background(), "tcp", net.JoinHostPort(c.addr, "80"))
			if err == nil {
				conn.Close()
				t.Fatal("dialled")
			}
			var ae *AddressError
			if !errors.As(err, &ae) || ae.Class != c.class || !errors.Is(err, ErrRefusedAddress) {
				t.Fatalf("error %v, want a refused %s address", err, c.class)
			}
			if !strings.Contains(err.Error(), c.class+" address") || !strings.Contains(err.Error(), "--allow-private") {
				t.Errorf("error %q does not name the class and the way out", err)
			}
		})
	}
}

// TestGuardControl checks the last line of defence: the address of the
// socket itself, whoever resolved it.
func TestGuardControl(t *testing.T) {
	g := &Guard{}
	for _, c := range refused {
		if err := g.control("tcp", net.JoinHostPort(c.addr, "443"), nil); err == nil || !strings.Contains(err.Error(), c.class) {
			t.Errorf("%s: %v", c.addr, err)
		}
	}
	if err := g.control("tcp", "93.184.216.34:443", nil); err != nil {
		t.Errorf("public address refused: %v", err)
	}
	if err := (&Guard{AllowPrivate: true}).control("tcp", "127.0.0.1:80", nil); err != nil {
		t.Errorf("--allow-private: %v", err)
	}
}

// fakeResolver maps names to addresses.
type fakeResolver map[string][]netip.Addr

func (f fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := f[host]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

func fetchError(t *testing.T, ts *testServer, site string) map[string]any {
	t.Helper()
	r := get(t, ts.URL+"/v1/fetch?url="+url.QueryEscape(site))
	if r.status != 200 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	return r.json(t)
}

// reached counts requests at a site that must never see one.
func forbiddenSite(t *testing.T) (*httptest.Server, *atomic.Int32) {
	n := new(atomic.Int32)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Write([]byte("User-agent: *\nAllow: /\n"))
	}))
	t.Cleanup(hs.Close)
	return hs, n
}

func TestFetchRefusesLoopback(t *testing.T) {
	site, hits := forbiddenSite(t)
	ts := newTestServer(t, nil)
	m := fetchError(t, ts, site.URL)
	if e, _ := m["error"].(string); !strings.Contains(e, "127.0.0.1 is a loopback address") {
		t.Errorf("error %q", e)
	}
	// Unreachable: Google's policy disallows everything until it answers.
	if m["policy"] != "disallow-all" || hits.Load() != 0 {
		t.Errorf("policy %v, %d requests reached the site", m["policy"], hits.Load())
	}
}

func TestFetchRefusesNameResolvingToPrivate(t *testing.T) {
	site, hits := forbiddenSite(t)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(site.URL, "http://"))
	ts := newTestServer(t, &Options{Resolver: fakeResolver{
		"rebind.example":   {netip.MustParseAddr("127.0.0.1")},
		"metadata.example": {netip.MustParseAddr("169.254.169.254")},
		"mixed.example":    {netip.MustParseAddr("10.0.0.7"), netip.MustParseAddr("::ffff:192.168.0.1")},
	}})
	for name, class := range map[string]string{"rebind.example": "loopback", "metadata.example": "cloud metadata", "mixed.example": "private"} {
		m := fetchError(t, ts, "http://"+name+":"+port)
		if e, _ := m["error"].(string); !strings.Contains(e, "is a "+class+" address") {
			t.Errorf("%s: error %q", name, e)
		}
	}
	if hits.Load() != 0 {
		t.Errorf("%d requests reached the site", hits.Load())
	}
}

func TestFetchRefusesRedirectToPrivate(t *testing.T) {
	inner, hits := forbiddenSite(t)
	// The outer site stands for a public one: the guard treats its
	// address as public; it redirects to the inner one on loopback.
	outer := httptest.NewServer(http.RedirectHandler(inner.URL+"/robots.txt", http.StatusMovedPermanently))
	defer outer.Close()
	ts := newTestServer(t, &Options{Resolver: fakeResolver{"public.example": {netip.MustParseAddr("127.0.0.1")}}})
	outerAP := netip.MustParseAddrPort(strings.TrimPrefix(outer.URL, "http://"))
	ts.guard.exempt = map[netip.AddrPort]bool{outerAP: true}
	m := fetchError(t, ts, "http://public.example:"+itoa(outerAP.Port()))
	trace, _ := m["trace"].([]any)
	if len(trace) != 2 || hits.Load() != 0 {
		t.Fatalf("trace %v, %d requests reached the inner site", trace, hits.Load())
	}
	if first := trace[0].(map[string]any); first["status"] != 301.0 {
		t.Errorf("first request %v", first)
	}
	if e, _ := m["error"].(string); !strings.Contains(e, "loopback address") {
		t.Errorf("error %q", e)
	}
}

func itoa(p uint16) string {
	return netip.AddrPortFrom(netip.IPv4Unspecified(), p).String()[len("0.0.0.0:"):]
}

func TestAllowPrivate(t *testing.T) {
	site, hits := forbiddenSite(t)
	ts := newTestServer(t, &Options{AllowPrivate: true})
	m := fetchError(t, ts, site.URL)
	if m["policy"] != "rules" || m["error"] != nil || hits.Load() != 1 {
		t.Errorf("%v, %d hits", m, hits.Load())
	}
}

// TestGuardNamesCarriedAddress: an IPv6 address refused for the IPv4
// address it carries says which, and how.
func TestGuardNamesCarriedAddress(t *testing.T) {
	g := &Guard{}
	for addr, want := range map[string]string{
		"64:ff9b::a00:1":                       "64:ff9b::a00:1 is a private address (NAT64 of 10.0.0.1)",
		"2002:7f00:1::1":                       "2002:7f00:1::1 is a loopback address (6to4 of 127.0.0.1)",
		"2001:0:4136:e378:8000:63bf:f5ff:fffe": "is a private address (Teredo client 10.0.0.1)",
	} {
		_, err := g.DialContext(context.Background(), "tcp", net.JoinHostPort(addr, "80"))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", addr, err, want)
		}
	}
}

// TestRefusedFetchNotStored: a fetch the guard refuses is a refusal for the
// cache (cache.Refusal): the site was not asked, and nothing is stored
// about it.
func TestRefusedFetchNotStored(t *testing.T) {
	site := robotsSite(t, "User-agent: *\nDisallow: /\n")
	mem := store.NewMemory(nil)
	ts := newTestServer(t, &Options{Store: mem})
	r := get(t, ts.URL+"/v1/fetch?url="+url.QueryEscape(site.URL))
	if r.status != 200 || r.json(t)["policy"] != "disallow-all" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if _, ok, _ := mem.Get(context.Background(), site.URL); ok {
		t.Error("the refused fetch's answer is stored in the cache")
	}
	var refusal cache.Refusal
	if err := error(&AddressError{Addr: netip.MustParseAddr("10.0.0.1"), Class: "private"}); !errors.As(err, &refusal) || !strings.Contains(refusal.Refusal(), "10.0.0.1 is a private address") {
		t.Errorf("AddressError is not a cache.Refusal naming the address")
	}
}

// TestRefusedRedirectNotRetried: a site that redirects its robots.txt to
// an address the guard refuses answered; the answer (unreachable,
// disallow all) is stored and retried with the cache's backoff, so the
// questions that follow do not ask the site again (before: nothing was
// stored, and every question, in every dialect, asked it again).
func TestRefusedRedirectNotRetried(t *testing.T) {
	inner, innerHits := forbiddenSite(t)
	var outerHits atomic.Int32
	outer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		outerHits.Add(1)
		http.Redirect(w, r, inner.URL+"/robots.txt", http.StatusMovedPermanently)
	}))
	defer outer.Close()
	ts := newTestServer(t, &Options{Resolver: fakeResolver{"public.example": {netip.MustParseAddr("127.0.0.1")}}})
	outerAP := netip.MustParseAddrPort(strings.TrimPrefix(outer.URL, "http://"))
	ts.guard.exempt = map[netip.AddrPort]bool{outerAP: true}
	origin := "http://public.example:" + itoa(outerAP.Port())
	for i := range 3 {
		m := fetchError(t, ts, origin)
		if m["policy"] != "disallow-all" || !strings.Contains(fmt.Sprint(m), "loopback address") {
			t.Errorf("fetch %d: %v", i, m)
		}
	}
	if r := post(t, ts.URL+"/v1/check", `{"origin": "`+origin+`", "urls": ["/a"]}`); r.status != 200 {
		t.Errorf("check: %d %s", r.status, r.body)
	}
	if n := outerHits.Load(); n != 1 || innerHits.Load() != 0 {
		t.Errorf("the site was asked %d times (want 1), the refused address %d", n, innerHits.Load())
	}
}

// TestWebhookRedirectToRefusedNotFollowed: a webhook that redirects to an
// address the guard refuses gets its 3xx back as its answer, which the
// watch engine does not try again (before: a failure to connect, tried 6
// times).
func TestWebhookRedirectToRefusedNotFollowed(t *testing.T) {
	inner, innerHits := forbiddenSite(t)
	outer := httptest.NewServer(http.RedirectHandler(inner.URL+"/hook", http.StatusTemporaryRedirect))
	defer outer.Close()
	ts := newTestServer(t, &Options{Resolver: fakeResolver{"hooks.example": {netip.MustParseAddr("127.0.0.1")}}})
	outerAP := netip.MustParseAddrPort(strings.TrimPrefix(outer.URL, "http://"))
	ts.guard.exempt = map[netip.AddrPort]bool{outerAP: true}
	resp, err := ts.webhookClient().Post("http://hooks.example:"+itoa(outerAP.Port())+"/hook", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatalf("the redirect is an error, tried again: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTemporaryRedirect || innerHits.Load() != 0 {
		t.Errorf("status %d, %d requests reached the refused address", resp.StatusCode, innerHits.Load())
	}
}
