package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/store/storetest"
	"github.com/seed53c283f5/robotstxt/watch"
)

// watchSite is a local site whose robots.txt a test changes.
type watchSite struct {
	*httptest.Server
	mu   sync.Mutex
	body string
}

func newWatchSite(t *testing.T, body string) *watchSite {
	s := &watchSite{body: body}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, s.body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *watchSite) set(body string) {
	s.mu.Lock()
	s.body = body
	s.mu.Unlock()
}

// hook is a local webhook receiver: it answers fail's statuses first.
type hook struct {
	*httptest.Server
	got  chan http.Header
	body chan []byte
	mu   sync.Mutex
	fail []int
}

func newHook(t *testing.T, fail ...int) *hook {
	h := &hook{got: make(chan http.Header, 20), body: make(chan []byte, 20), fail: fail}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		h.got <- r.Header.Clone()
		h.body <- b
		h.mu.Lock()
		status := 200
		if len(h.fail) > 0 {
			status, h.fail = h.fail[0], h.fail[1:]
		}
		h.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *hook) next(t *testing.T) (http.Header, []byte) {
	t.Helper()
	select {
	case hd := <-h.got:
		return hd, <-h.body
	case <-time.After(time.Minute):
		t.Fatal("no alert came")
	}
	return nil, nil
}

// serverTestKey seals the webhooks of the test servers' watches.
var serverTestKey = []byte("server-test-key-0123456789abcdef")

// watchServer is a test server whose watches run on clk, with the
// delivery of alerts running until the test ends.
func watchServer(t *testing.T, clk *storetest.Clock, o *Options) *testServer {
	t.Helper()
	if o == nil {
		o = &Options{AllowPrivate: true}
	}
	o.Now = clk.Now
	if o.Watch.Key == nil {
		o.Watch.Key = serverTestKey // one for every server: a fleet shares it
	}
	o.Watch.Backoff = time.Millisecond
	o.Watch.Jitter = func(d time.Duration) time.Duration { return d }
	ts := newTestServer(t, o)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { ts.watches.Deliver(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return ts
}

func watchTick(t *testing.T, ts *testServer, want int) {
	t.Helper()
	n, err := ts.watches.Tick(context.Background())
	if err != nil || n != want {
		t.Fatalf("Tick: %d checked (want %d), %v", n, want, err)
	}
}

// TestWatchAPI: a watch is made, listed, read and deleted through the
// API; an alert comes to the webhook with exactly the flipped (URL,
// crawler) pairs, signed, after the receiver's 500; the deleted watch
// stops.
func TestWatchAPI(t *testing.T) {
	clk := storetest.NewClock(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	site := newWatchSite(t, "User-agent: *\nDisallow: /admin/\n")
	h := newHook(t, 500)
	ts := watchServer(t, clk, nil)
	body := fmt.Sprintf(`{"origin": %q, "urls": ["/", "/shop/", "/admin/x"], "crawlers": ["Googlebot", "GPTBot"], "every": "10m", "webhook": %q, "secret": "k"}`, site.URL, h.URL)
	r := post(t, ts.URL+"/v1/watches", body)
	if r.status != http.StatusCreated {
		t.Fatalf("POST: %d %s", r.status, r.body)
	}
	var w WatchCreated
	json.Unmarshal(r.body, &w)
	own := []string{OwnerHeader, w.OwnerSecret}
	if w.ID == "" || r.header.Get("Location") != "/v1/watches/"+w.ID || w.State != "new" || !w.HasSecret || w.Every != "10m" {
		t.Fatalf("created %s", r.body)
	}
	if strings.Contains(string(r.body), `"k"`) {
		t.Errorf("the secret is shown: %s", r.body)
	}
	watchTick(t, ts, 1)
	site.set("User-agent: *\nDisallow: /admin/\nDisallow: /shop/\n\nUser-agent: GPTBot\nDisallow: /\n")
	clk.Advance(10 * time.Minute)
	watchTick(t, ts, 1)
	hd, b := h.next(t) // the 500
	hd2, b2 := h.next(t)
	if string(b) != string(b2) || hd.Get(watch.DeliveryHeader) != hd2.Get(watch.DeliveryHeader) {
		t.Errorf("the retry differs")
	}
	if err := watch.Verify("k", hd2.Get(watch.DeliveryHeader), b2, hd2.Get(watch.SignatureHeader), clk.Now()); err != nil {
		t.Errorf("the signature does not verify: %v", err)
	}
	var a watch.Alert
	if err := json.Unmarshal(b2, &a); err != nil {
		t.Fatal(err)
	}
	var pairs []string
	for _, c := range a.Changes {
		pairs = append(pairs, c.URL+" "+c.Crawler)
	}
	slices.Sort(pairs)
	if want := []string{"/ GPTBot", "/shop/ GPTBot", "/shop/ Googlebot"}; !slices.Equal(pairs, want) {
		t.Errorf("pairs %q, want %q", pairs, want)
	}
	if a.Severity != "critical" || a.Watch != w.ID || a.Summary == nil {
		t.Errorf("alert %s", b2)
	}
	// The list and the watch, with its history.
	var list WatchList
	json.Unmarshal(get(t, ts.URL+"/v1/watches", own...).body, &list)
	if len(list.Watches) != 1 || list.Watches[0].Checks != 2 || list.Watches[0].State != "ok" || list.MinInterval != "5m" {
		t.Errorf("list %+v", list)
	}
	var one watch.Status
	json.Unmarshal(get(t, ts.URL+"/v1/watches/"+w.ID, own...).body, &one)
	if len(one.History) != 2 || one.History[0].Flips != 3 || one.Severity != "critical" {
		t.Errorf("watch %+v", one)
	}
	// The history of the origin has both versions.
	hist := get(t, ts.URL+"/v1/history?origin="+site.URL).json(t)
	if vs, _ := hist["versions"].([]any); len(vs) != 2 {
		t.Errorf("history %v", hist)
	}
	// Deleted: gone, and checked no more.
	if r := do(t, "DELETE", ts.URL+"/v1/watches/"+w.ID, nil, own...); r.status != 200 {
		t.Fatalf("DELETE: %d %s", r.status, r.body)
	}
	get(t, ts.URL+"/v1/watches/"+w.ID, own...).wantError(t, 404, "")
	do(t, "DELETE", ts.URL+"/v1/watches/"+w.ID, nil, own...).wantError(t, 404, "")
	site.set("User-agent: *\nAllow: /\n")
	clk.Advance(time.Hour)
	watchTick(t, ts, 0)
	select {
	case <-h.got:
		t.Error("an alert for a deleted watch")
	default:
	}
}

// TestWatchBadRequests: the answers to bad watches name the field.
func TestWatchBadRequests(t *testing.T) {
	ts := newTestServer(t, &Options{AllowPrivate: true, Watch: WatchOptions{MaxPerClient: 1}})
	for _, tc := range []struct{ body, field string }{
		{`{"urls": ["/"]}`, "origin"},
		{`{"origin": "example.com"}`, "urls"},
		{`{"origin": "example.com", "urls": ["/"], "crawlers": ["Nobot"]}`, "crawlers"},
		{`{"origin": "example.com", "urls": ["/"], "every": "soon"}`, "every"},
		{`{"origin": "example.com", "urls": ["/"], "webhook": "gopher://x"}`, "webhook"},
		{`{"origin": "example.com", "url": ["/"]}`, "url"},
	} {
		post(t, ts.URL+"/v1/watches", tc.body).wantError(t, 400, tc.field)
	}
	get(t, ts.URL+"/v1/watches/nothex").wantError(t, 400, "id")
	get(t, ts.URL+"/v1/watches/0123456789abcdef").wantError(t, 404, "")
	if r := post(t, ts.URL+"/v1/watches", `{"origin": "example.com", "urls": ["/"]}`); r.status != 201 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	post(t, ts.URL+"/v1/watches", `{"origin": "example.com", "urls": ["/"]}`).wantError(t, 429, "")
	// Another origin's page may not delete.
	do(t, "DELETE", ts.URL+"/v1/watches/0123456789abcdef", nil, "Sec-Fetch-Site", "cross-site").wantError(t, 403, "")
}

// privateResolver maps every name to a private address.
type privateResolver struct{}

func (privateResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	return []netip.Addr{netip.MustParseAddr("10.1.2.3")}, nil
}

// TestWatchSSRF: without --allow-private a webhook on a private address,
// given as one or as a name that resolves to one, is refused; an alert
// posted to a name that resolves to one later is refused by the guard
// when it is sent.
func TestWatchSSRF(t *testing.T) {
	ts := newTestServer(t, &Options{Resolver: privateResolver{}})
	for _, hookURL := range []string{"http://127.0.0.1:9/hook", "http://[::1]/", "http://169.254.169.254/latest", "https://hooks.internal.example/x"} {
		r := post(t, ts.URL+"/v1/watches", fmt.Sprintf(`{"origin": "example.com", "urls": ["/"], "webhook": %q}`, hookURL))
		r.wantError(t, 400, "webhook")
		if !strings.Contains(string(r.body), "--allow-private") {
			t.Errorf("%s: %s", hookURL, r.body)
		}
	}
	// The guard itself, at the time of the post: the webhook client
	// dials through it.
	h := newHook(t)
	hc := &http.Client{Transport: ts.transport}
	resp, err := hc.Post(h.URL, "application/json", strings.NewReader("{}"))
	if err == nil {
		resp.Body.Close()
		t.Fatal("the webhook client reached a loopback address")
	}
	if !strings.Contains(err.Error(), "loopback") {
		t.Errorf("error %v", err)
	}
	// With --allow-private the same webhook is taken.
	ok := newTestServer(t, &Options{AllowPrivate: true})
	if r := post(t, ok.URL+"/v1/watches", `{"origin": "example.com", "urls": ["/"], "webhook": "http://127.0.0.1:9/hook"}`); r.status != 201 {
		t.Errorf("--allow-private: %d %s", r.status, r.body)
	}
}

// TestWatchServe: Serve runs the checks: a watch made through the API is
// checked without a Tick from the test; /metrics counts it.
func TestWatchServe(t *testing.T) {
	site := newWatchSite(t, "User-agent: *\nAllow: /\n")
	s, err := New(&Options{AllowPrivate: true, Watch: WatchOptions{PollInterval: 5 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	base := "http://" + ln.Addr().String()
	r := post(t, base+"/v1/watches", fmt.Sprintf(`{"origin": %q, "urls": ["/"]}`, site.URL))
	if r.status != 201 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	id := r.json(t)["id"].(string)
	own := []string{OwnerHeader, r.json(t)["owner_secret"].(string)}
	for deadline := time.Now().Add(time.Minute); ; {
		st := get(t, base+"/v1/watches/"+id, own...).json(t)
		if st["checks"].(float64) >= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("never checked: %v", st)
		}
		time.Sleep(5 * time.Millisecond)
	}
	m := string(get(t, base+"/metrics").body)
	for _, want := range []string{"robotstxt_watch_checks_total 1", `robotstxt_watch_changes_total{severity="critical"} 0`,
		`robotstxt_watch_last_check_timestamp_seconds{watch="` + id + `"}`, "robotstxt_watch_watches 1"} {
		if !strings.Contains(m, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// TestWatchFile: the watches of serve --watch are kept at start.
func TestWatchFile(t *testing.T) {
	specs, err := watch.ParseSpecs([]byte(`[{"origin": "https://example.com", "urls": ["/a"], "crawlers": ["search"], "every": "1h"}]`))
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, &Options{Watch: WatchOptions{Specs: specs, AdminToken: "adm"}})
	var list WatchList
	// A watch of the file has no owner: the admin lists it.
	json.Unmarshal(get(t, ts.URL+"/v1/watches", AdminHeader, "adm").body, &list)
	if len(list.Watches) != 1 || list.Watches[0].Every != "1h" || len(list.Watches[0].Crawlers) < 5 {
		t.Errorf("%+v", list)
	}
	if _, err := New(&Options{Watch: WatchOptions{Specs: []watch.Spec{{Origin: "example.com"}}}}); err == nil || !strings.Contains(err.Error(), "urls") {
		t.Errorf("a bad watch in the file: %v", err)
	}
}
