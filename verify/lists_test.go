package verify

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miekg/dns"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/internal/cputime"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/boltstore"
)

// fixtureOf names the shape fixture of each operator's lists.
var fixtureOf = map[string]string{
	"Google": "google.json", "Microsoft": "microsoft.json", "OpenAI": "openai.json",
	"Anthropic": "anthropic.json", "Perplexity": "perplexity.json", "Apple": "apple.json",
	"DuckDuckGo": "duckduckgo.json", "Common Crawl": "common-crawl.json", "Mistral": "mistral.json",
	"Amazon": "amazon.html",
}

// TestPublishedListShapes: every published list has a shape fixture, and
// each reads with its creationTime and prefixes.
func TestPublishedListShapes(t *testing.T) {
	for _, p := range PublishedLists() {
		name, ok := fixtureOf[p.Operator]
		if !ok {
			t.Errorf("%s (%s): no shape fixture", p.URL, p.Operator)
			continue
		}
		data, err := os.ReadFile(filepath.Join("testdata", "lists", name))
		if err != nil {
			t.Fatal(err)
		}
		r, err := parseList(p.URL, data)
		if err != nil {
			t.Errorf("%s: %v", p.URL, err)
			continue
		}
		if r.Len() == 0 || r.Source != p.URL {
			t.Errorf("%s: %d spans, source %q", p.URL, r.Len(), r.Source)
		}
		if !p.HTML && r.Created.IsZero() {
			t.Errorf("%s: creationTime %q not read", p.URL, r.CreationTime)
		}
	}
	r, _ := parseList("https://developer.amazon.com/amazonbot/ip-addresses/", mustRead(t, "amazon.html"))
	for _, a := range []string{"198.51.100.77", "203.0.113.70", "2001:db8:ab::1"} {
		if !r.Contains(netip.MustParseAddr(a)) {
			t.Errorf("Amazon's page: %s not read", a)
		}
	}
	if r.Contains(netip.MustParseAddr("198.51.100.79")) {
		t.Error("Amazon's page: an address it does not list")
	}
	if _, err := ParseRangesHTML([]byte("<html><p>moved</p></html>")); err == nil {
		t.Error("a page with no address: no error")
	}
}

// TestListsForCatalogue: the crawlers whose operators publish lists get
// them, by the catalogue's IPRanges or the table's names.
func TestListsForCatalogue(t *testing.T) {
	for name, want := range map[string]int{"Googlebot": 1, "GPTBot": 1, "ChatGPT-User": 2, "ClaudeBot": 1, "DuckDuckBot": 1, "DuckAssistBot": 1, "Amazonbot": 1, "Slurp": 0} {
		c, ok := robotstxt.LookupCrawler(name)
		if !ok {
			t.Fatalf("%s not in the catalogue", name)
		}
		if got := ListsFor(&c); len(got) != want {
			t.Errorf("%s: %d lists %v, want %d", name, len(got), got, want)
		}
	}
	// Every URL the catalogue names is in the table.
	for _, c := range robotstxt.Crawlers() {
		for _, u := range c.IPRanges {
			if !strings.HasPrefix(u, "https://") {
				continue
			}
			found := false
			for _, p := range published {
				found = found || p.URL == u
			}
			if !found {
				t.Errorf("%s: %s is not in the table of published lists", c.Name, u)
			}
		}
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "lists", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// listServer serves the Google fixture with an ETag, answering 304 to
// If-None-Match; fail makes it answer 500.
type listServer struct {
	*httptest.Server
	fetches, full atomic.Int32
	fail          atomic.Bool
	body          atomic.Value // []byte
	cacheControl  string
}

func newListServer(t *testing.T, body []byte) *listServer {
	ls := &listServer{}
	ls.body.Store(body)
	ls.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ls.fetches.Add(1)
		if ls.fail.Load() {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		b := ls.body.Load().([]byte)
		etag := `"` + strings.Repeat("x", len(b)%7+1) + `"`
		if ls.cacheControl != "" {
			w.Header().Set("Cache-Control", ls.cacheControl)
		}
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		ls.full.Add(1)
		w.Write(b)
	}))
	t.Cleanup(ls.Close)
	return ls
}

// TestListFetcherCaching: fresh copies are not fetched again; a stale
// copy is revalidated (304: no body); the store shares the copy between
// fetchers (a fleet); Cache-Control's max-age past the interval is kept.
func TestListFetcherCaching(t *testing.T) {
	ls := newListServer(t, mustRead(t, "google.json"))
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	st := store.NewMemory(nil)
	f := NewListFetcher(ListOptions{Client: ls.Client(), Store: st, Now: clock})
	url := ls.URL + "/common-crawlers.json"
	for range 3 {
		res, err := f.Get(context.Background(), url)
		if err != nil || !res.Ranges.Contains(netip.MustParseAddr("192.0.2.5")) || len(res.Warnings) != 0 {
			t.Fatalf("%+v, %v", res, err)
		}
	}
	if ls.fetches.Load() != 1 {
		t.Errorf("%d fetches within the interval, want 1", ls.fetches.Load())
	}
	// Another fetcher on the same store (another server of a fleet).
	g := NewListFetcher(ListOptions{Client: ls.Client(), Store: st, Now: clock})
	if _, err := g.Get(context.Background(), url); err != nil || ls.fetches.Load() != 1 {
		t.Errorf("the fleet's second fetcher: %v, %d fetches, want 1", err, ls.fetches.Load())
	}
	// A day later: revalidated, 304, the copy kept.
	now = now.Add(25 * time.Hour)
	res, err := f.Get(context.Background(), url)
	if err != nil || ls.fetches.Load() != 2 || ls.full.Load() != 1 || !res.Ranges.Contains(netip.MustParseAddr("192.0.2.5")) || !res.Fetched.Equal(now) {
		t.Errorf("revalidation: %v, %d fetches, %d full, fetched %v", err, ls.fetches.Load(), ls.full.Load(), res.Fetched)
	}
	// max-age of a week: not fetched again for a week.
	ls2 := newListServer(t, mustRead(t, "openai.json"))
	ls2.cacheControl = "public, max-age=604800"
	h := NewListFetcher(ListOptions{Client: ls2.Client(), Now: clock})
	h.Get(context.Background(), ls2.URL)
	now = now.Add(6 * 24 * time.Hour)
	h.Get(context.Background(), ls2.URL)
	if ls2.fetches.Load() != 1 {
		t.Errorf("max-age of a week: %d fetches in 6 days, want 1", ls2.fetches.Load())
	}
}

// TestListFetcherKeepsLastGood: a failing server, a body that does not
// parse, keep the last good copy with a warning, and are not asked again
// before Retry; with no copy at all, the error.
func TestListFetcherKeepsLastGood(t *testing.T) {
	ls := newListServer(t, mustRead(t, "microsoft.json"))
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	f := NewListFetcher(ListOptions{Client: ls.Client(), Now: func() time.Time { return now }})
	url := ls.URL + "/bingbot.json"
	if _, err := f.Get(context.Background(), url); err != nil {
		t.Fatal(err)
	}
	for i, broken := range []func(){
		func() { ls.fail.Store(true) },
		func() { ls.fail.Store(false); ls.body.Store([]byte(`{"prefixes": [{"ipv4Prefix": "not a prefix"}]}`)) },
	} {
		broken()
		now = now.Add(25 * time.Hour)
		before := ls.fetches.Load()
		res, err := f.Get(context.Background(), url)
		if err != nil || !res.Ranges.Contains(netip.MustParseAddr("198.51.100.9")) || len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0], "using the copy fetched") {
			t.Errorf("case %d: %+v, %v", i, res, err)
		}
		// Within Retry: the copy, no fetch.
		res, _ = f.Get(context.Background(), url)
		if ls.fetches.Load() != before+1 || len(res.Warnings) == 0 {
			t.Errorf("case %d: %d fetches after the failure, want 1; %v", i, ls.fetches.Load()-before, res.Warnings)
		}
	}
	if _, err := NewListFetcher(ListOptions{Client: ls.Client()}).Get(context.Background(), url); err == nil {
		t.Error("no copy and a list that does not parse: no error")
	}
}

// TestListStaleWarning: a creationTime older than MaxAge warns; the
// list is still used.
func TestListStaleWarning(t *testing.T) {
	ls := newListServer(t, mustRead(t, "apple.json")) // created 2026-11-15
	for _, c := range []struct {
		now  time.Time
		warn bool
	}{{time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC), false}, {time.Date(2027, 1, 20, 0, 0, 0, 0, time.UTC), true}} {
		f := NewListFetcher(ListOptions{Client: ls.Client(), Now: func() time.Time { return c.now }})
		res, err := f.Get(context.Background(), ls.URL)
		if err != nil || res.Ranges == nil {
			t.Fatal(err)
		}
		got := len(res.Warnings) == 1 && strings.Contains(res.Warnings[0], "older than 30 days")
		if got != c.warn {
			t.Errorf("at %v: warnings %v, want a stale warning %v", c.now, res.Warnings, c.warn)
		}
	}
}

// TestListFetchShared: concurrent callers of one URL share one fetch.
func TestListFetchShared(t *testing.T) {
	gate := make(chan struct{})
	var fetches atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		<-gate
		w.Write([]byte(`{"prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}`))
	}))
	defer srv.Close()
	f := NewListFetcher(ListOptions{Client: srv.Client()})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := f.Get(context.Background(), srv.URL); err != nil {
				t.Error(err)
			}
		})
	}
	time.Sleep(50 * time.Millisecond)
	close(gate)
	wg.Wait()
	if fetches.Load() != 1 {
		t.Errorf("%d fetches for 8 concurrent callers, want 1", fetches.Load())
	}
}

// TestEvidence: the record names the list (its URL and creationTime) of
// a verified or spoofed address, the reverse DNS name, and the time.
func TestEvidence(t *testing.T) {
	r, err := parseList("https://openai.com/gptbot.json", mustRead(t, "openai.json"))
	if err != nil {
		t.Fatal(err)
	}
	tmpl := New(&Options{NoDNS: true})
	tmpl.AddRanges("GPTBot", r)
	v := New(&Options{NoDNS: true})
	v.ShareRanges(tmpl)
	gpt, _ := robotstxt.LookupCrawler("GPTBot")
	at := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		ip, outcome, method string
		lists               int
	}{{"192.0.2.130", "verified", MethodRanges, 1}, {"203.0.113.1", "spoofed", MethodRanges, 1}} {
		ip := netip.MustParseAddr(c.ip)
		e := v.Evidence(&gpt, ip, v.Check(context.Background(), ip, &gpt), at)
		if e.Outcome != c.outcome || e.Method != c.method || len(e.Lists) != c.lists || e.Lists[0].URL != "https://openai.com/gptbot.json" ||
			e.Lists[0].CreationTime != "2026-11-18T08:00:00.000000" || !e.Checked.Equal(at) || e.Crawler != "GPTBot" || e.IP != c.ip {
			t.Errorf("%s: %+v", c.ip, e)
		}
	}
	claude, _ := robotstxt.LookupCrawler("ClaudeBot")
	if e := v.Decide(context.Background(), netip.MustParseAddr("192.0.2.1"), &claude); e.Outcome != "unverified" || e.Method != MethodNone || e.Checked.IsZero() {
		t.Errorf("no data: %+v", e)
	}
}

// TestDNSDeadline: a resolver that never answers costs at most the
// deadline, however many addresses are asked; their claims are
// unverified.
func TestDNSDeadline(t *testing.T) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(func(dns.ResponseWriter, *dns.Msg) {})} // silent
	go srv.ActivateAndServe()
	defer srv.Shutdown()
	v := New(&Options{Resolver: pc.LocalAddr().String(), Timeout: time.Minute, Concurrency: 2})
	v.SetDNSDeadline(time.Now().Add(300 * time.Millisecond))
	gb := googlebot(t)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			ip := netip.AddrFrom4([4]byte{192, 0, 2, byte(i + 1)})
			if r := v.Check(context.Background(), ip, gb); r.Outcome != Unverified {
				t.Errorf("%v: %v", ip, r.Outcome)
			}
		})
	}
	wg.Wait()
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("8 addresses on a silent resolver took %v with a 300ms budget", d)
	}
}

// BenchmarkCachedAddress: the check of an address whose answer is had
// without DNS: in a published list, and by a DNS answer in memory.
func BenchmarkCachedAddress(b *testing.B) {
	r, _ := ParseRanges(mustReadB(b, "google.json"))
	v := New(&Options{NoDNS: true})
	v.AddRanges("Googlebot", r)
	gb, _ := robotstxt.LookupCrawler("Googlebot")
	ctx := context.Background()
	b.Run("list", func(b *testing.B) {
		ip := netip.MustParseAddr("192.0.2.40")
		start := cputime.Process()
		for b.Loop() {
			if v.Check(ctx, ip, &gb).Outcome != Verified {
				b.Fatal("not verified")
			}
		}
		b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op")
	})
	b.Run("dns-memory", func(b *testing.B) {
		w := New(nil)
		ip := netip.MustParseAddr("198.51.100.1")
		e := &dnsEntry{done: make(chan struct{}), ans: dnsAnswer{Names: []string{"crawl-1.googlebot.com"}, Confirmed: []bool{true}, Definite: true}}
		close(e.done)
		w.cache[ip] = e
		start := cputime.Process()
		for b.Loop() {
			if w.Check(ctx, ip, &gb).Outcome != Verified {
				b.Fatal("not verified")
			}
		}
		b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op")
	})
}

func mustReadB(b *testing.B, name string) []byte {
	data, err := os.ReadFile(filepath.Join("testdata", "lists", name))
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// TestListFetchFleet: two fetchers (two processes of a fleet) on one
// shared store that has leases fetch a list once: the one without the
// lease waits for the copy the other stores.
func TestListFetchFleet(t *testing.T) {
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "fleet.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	gate := make(chan struct{})
	var fetches atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		<-gate
		w.Write([]byte(`{"prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}`))
	}))
	defer srv.Close()
	var wg sync.WaitGroup
	for range 2 {
		f := NewListFetcher(ListOptions{Client: srv.Client(), Store: st})
		wg.Go(func() {
			res, err := f.Get(context.Background(), srv.URL)
			if err != nil || !res.Ranges.Contains(netip.MustParseAddr("192.0.2.9")) {
				t.Errorf("%+v, %v", res, err)
			}
		})
	}
	time.Sleep(200 * time.Millisecond)
	close(gate)
	wg.Wait()
	if fetches.Load() != 1 {
		t.Errorf("%d fetches by two processes of a fleet, want 1", fetches.Load())
	}
}

// TestListFetchCallerDeadline: a caller waits no longer than its context
// for a slow list; the fetch goes on, and its copy serves the next
// caller.
func TestListFetchCallerDeadline(t *testing.T) {
	gate := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-gate
		w.Write([]byte(`{"prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]}`))
	}))
	defer srv.Close()
	defer close(gate)
	f := NewListFetcher(ListOptions{Client: srv.Client()})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := f.Get(ctx, srv.URL); err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("a slow list: %v after %v", err, time.Since(start))
	}
	gate <- struct{}{}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if res, err := f.Get(context.Background(), srv.URL); err == nil && res.Ranges.Contains(netip.MustParseAddr("192.0.2.1")) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Error("the fetch that outlived its caller left no copy")
}
