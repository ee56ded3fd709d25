package server

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/store"
)

// keysOf lists the history keys a memory store holds.
func historyKeys(t *testing.T, mem *store.Memory, origins ...string) []string {
	t.Helper()
	var keys []string
	for _, o := range origins {
		if _, ok, _ := mem.Get(context.Background(), "history "+o); ok {
			keys = append(keys, "history "+o)
		}
	}
	return keys
}

// noSuchHost is a resolver that knows no name.
type noSuchHost struct{}

func (noSuchHost) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// TestHistoryOnlySiteAnswers: a fetch the guard refuses, a name that does
// not resolve and a connection refused are not the site's file: none is
// recorded (each wrote a version that never expired).
func TestHistoryOnlySiteAnswers(t *testing.T) {
	site := robotsSite(t, "User-agent: *\nDisallow: /\n")
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close() // nothing listens there now
	mem := store.NewMemory(nil)
	guarded := newTestServer(t, &Options{Store: mem, Resolver: noSuchHost{}})
	open := newTestServer(t, &Options{Store: mem, AllowPrivate: true})
	for _, c := range []struct {
		ts     *testServer
		origin string
	}{
		{guarded, site.URL},                    // loopback: refused by the guard
		{guarded, "https://no-such-host.test"}, // no address
		{open, closedURL},                      // connection refused
	} {
		if r := get(t, c.ts.URL+"/v1/fetch?url="+url.QueryEscape(c.origin)); r.status != 200 {
			t.Fatalf("%s: %d %s", c.origin, r.status, r.body)
		}
		if r := get(t, c.ts.URL+"/v1/history?origin="+url.QueryEscape(c.origin)); r.status != 200 || strings.Contains(string(r.body), "fetched_at") {
			t.Errorf("%s: a version was recorded: %s", c.origin, r.body)
		}
	}
	if keys := historyKeys(t, mem, site.URL, "https://no-such-host.test", closedURL); len(keys) > 0 {
		t.Errorf("history keys stored: %v", keys)
	}
	// The site's own answer is recorded.
	get(t, open.URL+"/v1/fetch?url="+url.QueryEscape(site.URL))
	if keys := historyKeys(t, mem, site.URL); len(keys) != 1 {
		t.Errorf("the site's answer was not recorded")
	}
}

// TestHistoryTTL: a version is kept HistoryTTL after it was last seen (the
// newest at each fetch, an older one when the next came); the store
// forgets the keys past it.
func TestHistoryTTL(t *testing.T) {
	var body atomic.Value
	body.Store("User-agent: *\nDisallow: /a\n")
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(body.Load().(string)))
	}))
	defer site.Close()
	day := 24 * time.Hour
	clk := &clock{now: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}
	mem := store.NewMemory(&store.MemoryOptions{Now: clk.Now})
	ts := newTestServer(t, &Options{AllowPrivate: true, Now: clk.Now, Store: mem, HistoryTTL: 30 * day})
	fetchNow := func() {
		t.Helper()
		if r := get(t, ts.URL+"/v1/fetch?url="+url.QueryEscape(site.URL)); r.status != 200 {
			t.Fatalf("%d %s", r.status, r.body)
		}
	}
	versions := func() []Version {
		t.Helper()
		o, _ := parseOrigin(site.URL)
		vs, err := newHistory(mem, clk.Now, 30*day, 0).list(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		return vs
	}
	o, _ := parseOrigin(site.URL)
	hashA := hashOf([]byte("User-agent: *\nDisallow: /a\n"))
	fetchNow() // day 0: A
	clk.Add(10 * day)
	body.Store("User-agent: *\nDisallow: /b\n")
	fetchNow() // day 10: B; A was last seen now
	clk.Add(25 * day)
	fetchNow() // day 35: B again
	if vs := versions(); len(vs) != 2 {
		t.Fatalf("day 35: %d versions, want A and B", len(vs))
	}
	clk.Add(6 * day) // day 41: A past its 30 days
	if vs := versions(); len(vs) != 1 || vs[0].Hash == hashA {
		t.Errorf("day 41: %+v, want B alone", vs)
	}
	if _, ok, _ := mem.Get(context.Background(), bodyKey(o, hashA)); ok {
		t.Error("day 41: A's body is still stored")
	}
	get(t, ts.URL+"/v1/history/version?origin="+url.QueryEscape(site.URL)+"&hash="+hashA).wantError(t, 404, "hash")
	clk.Add(25 * day) // day 66: B seen last on day 35
	if vs := versions(); len(vs) != 0 {
		t.Errorf("day 66: %+v, want none", vs)
	}
	if keys := historyKeys(t, mem, site.URL); len(keys) != 0 {
		t.Errorf("day 66: %v still stored", keys)
	}

	off := newTestServer(t, &Options{AllowPrivate: true, Store: store.NewMemory(nil), HistoryTTL: -1})
	get(t, off.URL+"/v1/fetch?url="+url.QueryEscape(site.URL))
	if r := get(t, off.URL+"/v1/history?origin="+url.QueryEscape(site.URL)); r.status != 200 || strings.Contains(string(r.body), "fetched_at") {
		t.Errorf("no history: %d %s", r.status, r.body)
	}
}

// TestHistoryOrigins: past HistoryOrigins origins, the history of the one
// fetched least recently (from the site, not the cache) is deleted, list
// and bodies.
func TestHistoryOrigins(t *testing.T) {
	mem := store.NewMemory(nil)
	ts := newTestServer(t, &Options{AllowPrivate: true, Store: mem, HistoryOrigins: 2})
	var sites []string
	for range 3 {
		sites = append(sites, robotsSite(t, "User-agent: *\nDisallow: /x\n").URL)
	}
	for _, s := range sites {
		if r := get(t, ts.URL+"/v1/fetch?url="+url.QueryEscape(s)); r.status != 200 {
			t.Fatalf("%d %s", r.status, r.body)
		}
	}
	if keys := historyKeys(t, mem, sites...); len(keys) != 2 || keys[0] != "history "+sites[1] || keys[1] != "history "+sites[2] {
		t.Errorf("kept %v, want the histories of sites 1 and 2", keys)
	}
	o, _ := parseOrigin(sites[0])
	if _, ok, _ := mem.Get(context.Background(), bodyKey(o, hashOf([]byte("User-agent: *\nDisallow: /x\n")))); ok {
		t.Error("the body of a forgotten origin is still stored")
	}
}
