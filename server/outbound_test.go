package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/store/storetest"
)

// loopbackResolver resolves every name to 127.0.0.1: the sites of a test,
// under as many names as it likes.
type loopbackResolver struct{}

func (loopbackResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
}

// countingSite is a robots.txt site that counts its requests, the most
// at once, its new connections and the bytes it sent.
type countingSite struct {
	*httptest.Server
	hits, now, most, conns, sent atomic.Int64
}

func newCountingSite(t *testing.T, body string, delay time.Duration) *countingSite {
	t.Helper()
	cs := &countingSite{}
	cs.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cs.hits.Add(1)
		n := cs.now.Add(1)
		for {
			m := cs.most.Load()
			if n <= m || cs.most.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(delay)
		cs.now.Add(-1)
		w.Write([]byte(body))
		cs.sent.Add(int64(len(body)))
	}))
	cs.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			cs.conns.Add(1)
		}
	}
	cs.Start()
	t.Cleanup(cs.Close)
	return cs
}

func (cs *countingSite) port() string {
	_, port, _ := net.SplitHostPort(cs.Listener.Addr().String())
	return port
}

// bulkOf posts a bulk of one URL on each of hosts and returns its result
// lines and how long it took.
func bulkOf(t *testing.T, base string, hosts []string, port string) ([]map[string]any, time.Duration) {
	t.Helper()
	var urls []string
	for _, h := range hosts {
		urls = append(urls, "http://"+h+":"+port+"/page")
	}
	b, _ := json.Marshal(map[string]any{"urls": urls, "crawlers": []string{"googlebot"}, "order": "any"})
	start := time.Now()
	resp, err := http.Post(base+"/v1/bulk", "application/json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var lines []map[string]any
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil {
			lines = append(lines, m)
		}
	}
	if resp.StatusCode != 200 {
		t.Fatalf("bulk: %d", resp.StatusCode)
	}
	return lines, time.Since(start)
}

// refusedLines counts the results that an outbound bound refused.
func refusedLines(lines []map[string]any) int {
	n := 0
	for _, l := range lines {
		b, _ := json.Marshal(l)
		if strings.Contains(string(b), "are at their bound") {
			n++
		}
	}
	return n
}

func names(format string, n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf(format, i))
	}
	return out
}

// TestOutboundPerDomain: wildcard subdomains of one site are one
// registrable domain: a bulk of 100 of them makes at most the domain's
// burst and rate of requests, at most PerDomain at once; the rest are
// refused, not fetched (before: 100 requests, 6 at once).
func TestOutboundPerDomain(t *testing.T) {
	site := newCountingSite(t, "User-agent: *\nDisallow: /private\n", 20*time.Millisecond)
	ts := newTestServer(t, &Options{AllowPrivate: true, Resolver: loopbackResolver{}, Outbound: OutboundOptions{
		PerDomain: 2, DomainRate: 5, DomainBurst: 5, MaxWait: 300 * time.Millisecond,
	}})
	lines, took := bulkOf(t, ts.URL, names("s%d.victim.example", 100), site.port())
	allowed := 5 + int64(5*took.Seconds()) + 1
	if h := site.hits.Load(); h > allowed || site.most.Load() > 2 {
		t.Errorf("%d requests (at most %d in %v), %d at once (at most 2)", h, allowed, took, site.most.Load())
	}
	if refusedLines(lines) == 0 || len(lines) != 100 {
		t.Errorf("%d results, %d refused by the domain's bound", len(lines), refusedLines(lines))
	}
	if got := metric(t, ts.URL, `robotstxt_outbound_requests_total{result="domain"}`); got == 0 {
		t.Error("no refusal counted in robotstxt_outbound_requests_total")
	}
}

// TestOutboundPerClient: one client's bulk of 300 distinct sites makes at
// most the client's burst and rate of requests, at most PerClient at once
// (before: 300, 6 at once); another client is not held by it.
func TestOutboundPerClient(t *testing.T) {
	site := newCountingSite(t, "User-agent: *\nDisallow: /private\n", 20*time.Millisecond)
	_, hostile, normal := serveBoth(t, &Options{AllowPrivate: true, Resolver: loopbackResolver{}, Outbound: OutboundOptions{
		PerClient: 2, ClientRate: 10, ClientBurst: 10, MaxWait: 300 * time.Millisecond,
	}})
	lines, took := bulkOf(t, hostile, names("d%d.example", 300), site.port())
	allowed := 10 + int64(10*took.Seconds()) + 1
	if h := site.hits.Load(); h > allowed || site.most.Load() > 2 {
		t.Errorf("%d requests (at most %d in %v), %d at once (at most 2)", h, allowed, took, site.most.Load())
	}
	if refusedLines(lines) == 0 {
		t.Error("no result refused by the client's bound")
	}
	// The other client has its own bounds.
	resp, err := http.Get(normal + "/v1/fetch?url=" + "http://other.example:" + site.port())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.NewDecoder(resp.Body).Decode(&m)
	resp.Body.Close()
	if m["policy"] != "rules" {
		t.Errorf("another client's fetch: %v", m)
	}
}

// TestOutboundBytes: the bytes a client's requests pull count against its
// share: with 100 KiB a second and a burst of one fetch, a bulk of sites
// that answer 400 KiB each pulls about one body and a second's worth, not
// all of them.
func TestOutboundBytes(t *testing.T) {
	body := "User-agent: *\nDisallow: /private\n#" + strings.Repeat("x", 400<<10) + "\n"
	site := newCountingSite(t, body, 0)
	ts := newTestServer(t, &Options{AllowPrivate: true, Resolver: loopbackResolver{}, Outbound: OutboundOptions{
		ClientBytesRate: 100 << 10, ClientBytesBurst: outboundCharge, MaxWait: 300 * time.Millisecond,
	}})
	lines, took := bulkOf(t, ts.URL, names("b%d.example", 40), site.port())
	allowed := int64(outboundCharge) + int64(float64(100<<10)*took.Seconds()) + int64(len(body))
	if sent := site.sent.Load(); sent > allowed {
		t.Errorf("the sites sent %d bytes in %v, want at most %d", sent, took, allowed)
	}
	if refusedLines(lines) == 0 {
		t.Error("no result refused by the client's bytes")
	}
	checkRSS(t)
	t.Logf("%d bytes sent in %v (bound %d)", site.sent.Load(), took, allowed)
	if got := metric(t, ts.URL, "robotstxt_outbound_bytes_total"); got < float64(len(body)) {
		t.Errorf("robotstxt_outbound_bytes_total %v", got)
	}
}

// TestOutboundPerAddress: many registrable domains on one address open at
// most the address's burst and rate of new connections.
func TestOutboundPerAddress(t *testing.T) {
	site := newCountingSite(t, "User-agent: *\n", 0)
	ts := newTestServer(t, &Options{AllowPrivate: true, Resolver: loopbackResolver{}, Outbound: OutboundOptions{
		AddressRate: 2, AddressBurst: 3, MaxWait: 300 * time.Millisecond,
	}})
	lines, took := bulkOf(t, ts.URL, names("a%d.example", 50), site.port())
	allowed := 3 + int64(2*took.Seconds()) + 1
	if c := site.conns.Load(); c > allowed {
		t.Errorf("%d new connections to one address in %v, want at most %d", c, took, allowed)
	}
	if refusedLines(lines) == 0 {
		t.Error("no result refused by the address's bound")
	}
}

// TestWatchOutboundRefusalNoAlert: a watch's check that an outbound bound
// refused is not the site's answer: no alert (before: the fetch state
// "refused" and every verdict flipped to disallowed), the watch's state
// says why, and it is checked again.
func TestWatchOutboundRefusalNoAlert(t *testing.T) {
	clk := storetest.NewClock(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	site := newWatchSite(t, "User-agent: *\nDisallow: /admin/\n")
	h := newHook(t)
	ts := watchServer(t, clk, &Options{AllowPrivate: true, Outbound: OutboundOptions{
		ClientRate: 0.001, ClientBurst: 1, MaxWait: 100 * time.Millisecond,
	}})
	r := post(t, ts.URL+"/v1/watches", fmt.Sprintf(`{"origin": %q, "urls": ["/", "/admin/x"], "every": "10m", "webhook": %q}`, site.URL, h.URL))
	if r.status != http.StatusCreated {
		t.Fatalf("POST: %d %s", r.status, r.body)
	}
	var w WatchCreated
	json.Unmarshal(r.body, &w)
	watchTick(t, ts, 1) // the baseline, with the one fetch the bound gives
	clk.Advance(10 * time.Minute)
	watchTick(t, ts, 1)
	select {
	case hd := <-h.got:
		t.Errorf("an alert for a fetch the server's own bound refused: %v %s", hd, <-h.body)
	case <-time.After(300 * time.Millisecond):
	}
	if b := get(t, ts.URL+"/v1/watches/"+w.ID, OwnerHeader, w.OwnerSecret).body; !strings.Contains(string(b), "at their bound") {
		t.Errorf("the watch does not say why it was not checked: %s", b)
	}
}

// TestOutboundKeysForgotten: a bound forgets the keys no request holds
// once their buckets are full again, and remembers at most
// maxOutboundKeys of the others.
func TestOutboundKeysForgotten(t *testing.T) {
	k := newKeyed(2, 10, 2)
	for i := range 200 {
		rel, err := k.take(context.Background(), fmt.Sprint("d", i), 1)
		if err != nil {
			t.Fatal(err)
		}
		rel()
	}
	if n := len(k.keys); n != 200 {
		t.Fatalf("%d keys remembered with buckets not full, want 200", n)
	}
	time.Sleep(250 * time.Millisecond) // the buckets refill (10 a second)
	k.swept = time.Time{}
	rel, _ := k.take(context.Background(), "last", 1)
	rel()
	if n := len(k.keys); n > 1 {
		t.Errorf("%d keys remembered after their buckets refilled", n)
	}
}
