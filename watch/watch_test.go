package watch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/storetest"
	"github.com/seed53c283f5/robotstxt/tester"
)

// testKey seals the webhooks of the tests' engines: one key for all, as
// a fleet shares one.
var testKey = []byte("0123456789abcdef0123456789abcdef")

// newClock is a clock the tests move by hand.
func newClock() *storetest.Clock {
	return storetest.NewClock(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
}

// site is a local web site whose robots.txt a test changes.
type site struct {
	*httptest.Server
	mu      sync.Mutex
	status  int
	ctype   string
	body    string
	fetches atomic.Int64
}

func newSite(t *testing.T, body string) *site {
	s := &site{status: 200, ctype: "text/plain", body: body}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		s.fetches.Add(1)
		s.mu.Lock()
		defer s.mu.Unlock()
		w.Header().Set("Content-Type", s.ctype)
		w.WriteHeader(s.status)
		io.WriteString(w, s.body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) set(status int, ctype, body string) {
	s.mu.Lock()
	s.status, s.ctype, s.body = status, ctype, body
	s.mu.Unlock()
}

// received is one POST a receiver got.
type received struct {
	header http.Header
	body   []byte
}

// receiver is a local webhook receiver: it answers the statuses of fail
// first (one a POST), then 200.
type receiver struct {
	*httptest.Server
	got  chan received
	mu   sync.Mutex
	fail []int
}

func newReceiver(t *testing.T, fail ...int) *receiver {
	rc := &receiver{got: make(chan received, 100), fail: fail}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.got <- received{r.Header.Clone(), b}
		rc.mu.Lock()
		status := 200
		if len(rc.fail) > 0 {
			status, rc.fail = rc.fail[0], rc.fail[1:]
		}
		rc.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(rc.Close)
	return rc
}

// next waits for the next POST (a deadline for a hung test, not a
// measurement).
func (rc *receiver) next(t *testing.T) received {
	t.Helper()
	select {
	case r := <-rc.got:
		return r
	case <-time.After(time.Minute):
		t.Fatal("no alert came")
	}
	return received{}
}

// fetcherOver returns a Fetch function through a cache on st, as the
// service's: a fresh fetch each time.
func fetcherOver(st store.Store, now func() time.Time) func(ctx context.Context, origin string) ([]byte, *tester.FetchInfo, error) {
	c := cache.New(&cache.Options{Store: st, Fetcher: &fetch.Fetcher{Now: now}, Now: now})
	return func(ctx context.Context, origin string) ([]byte, *tester.FetchInfo, error) {
		return tester.FetchInfoOf(ctx, c, origin, nil)
	}
}

func newEngine(t *testing.T, st store.Store, clk *storetest.Clock, mod func(*Options)) *Engine {
	t.Helper()
	o := &Options{Store: st, Fetch: fetcherOver(st, clk.Now), Now: clk.Now, Backoff: time.Millisecond,
		Jitter: func(d time.Duration) time.Duration { return d }, Key: testKey}
	if mod != nil {
		mod(o)
	}
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// deliver runs e's delivery until the test ends.
func deliver(t *testing.T, e *Engine) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { e.Deliver(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
}

func tick(t *testing.T, e *Engine, want int) {
	t.Helper()
	n, err := e.Tick(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n != want {
		t.Fatalf("Tick checked %d watches, want %d", n, want)
	}
}

func flipKeys(fs []Flip) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.URL+" "+f.Crawler)
	}
	slices.Sort(out)
	return out
}

// TestAlertFlips: the file changes; the alert carries exactly the flipped
// (URL, crawler) pairs, with the lines and rules before and after, the
// summary of the new version, and a signature that verifies.
func TestAlertFlips(t *testing.T) {
	clk := newClock()
	s := newSite(t, "User-agent: *\nDisallow: /tmp/\n")
	rc := newReceiver(t)
	e := newEngine(t, store.NewMemory(nil), clk, nil)
	deliver(t, e)
	w, err := e.Create(context.Background(), &Spec{Origin: s.URL, URLs: []string{"/", "/private/x", s.URL + "/blog"},
		Crawlers: []string{"Googlebot", "GPTBot"}, Every: "15m", Webhook: rc.URL, Secret: "s3cret"}, "")
	if err != nil {
		t.Fatal(err)
	}
	tick(t, e, 1) // the baseline: no alert
	s.set(200, "text/plain", "User-agent: *\nDisallow: /tmp/\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n")
	tick(t, e, 0) // not due yet
	clk.Advance(15 * time.Minute)
	tick(t, e, 1)
	r := rc.next(t)
	sig, id := r.header.Get(SignatureHeader), r.header.Get(DeliveryHeader)
	if err := Verify("s3cret", id, r.body, sig, clk.Now()); err != nil {
		t.Errorf("the signature %q does not verify: %v", sig, err)
	}
	if Verify("other", id, r.body, sig, clk.Now()) == nil {
		t.Error("the signature verifies with another secret")
	}
	if r.header.Get(WatchHeader) != w.ID || r.header.Get("Content-Type") != "application/json" {
		t.Errorf("headers %v", r.header)
	}
	var a Alert
	if err := json.Unmarshal(r.body, &a); err != nil {
		t.Fatal(err)
	}
	want := []string{"/ GPTBot", "/private/x GPTBot", "/private/x Googlebot", s.URL + "/blog GPTBot"}
	slices.Sort(want)
	if got := flipKeys(a.Changes); !slices.Equal(got, want) {
		t.Errorf("flips %q, want %q", got, want)
	}
	if a.Severity != SeverityCritical || a.Watch != w.ID || a.Origin != s.URL {
		t.Errorf("alert %+v", a)
	}
	for _, f := range a.Changes {
		if f.URL == "/private/x" && f.Crawler == "Googlebot" {
			if !f.Before.Allowed || f.After.Allowed || f.After.Line != 3 || f.After.Rule != "Disallow: /private/" || f.Severity != SeverityCritical {
				t.Errorf("flip %+v", f)
			}
		}
		if f.Crawler == "GPTBot" && f.Severity != SeverityWarning {
			t.Errorf("GPTBot is no search crawler: %+v", f)
		}
	}
	if a.Summary == nil || len(a.Summary.GroupsAdded) != 1 || len(a.Summary.RulesAdded) != 1 || a.Previous == nil || a.Previous.Hash == a.Version.Hash {
		t.Errorf("summary %+v, versions %+v %+v", a.Summary, a.Previous, a.Version)
	}
	// The history: the baseline and the change, newest first.
	st, err := e.Get(context.Background(), w.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st.Webhook != rc.URL+"/…" && st.Webhook != rc.URL {
		t.Errorf("webhook shown as %q", st.Webhook)
	}
	if len(st.History) != 2 || !st.History[1].Baseline || st.History[0].Flips != 4 || len(st.History[0].Summary) != 2 || st.State != StateOK || st.Checks != 2 {
		t.Errorf("status %+v", st)
	}
	// No change: no alert, no event.
	clk.Advance(15 * time.Minute)
	tick(t, e, 1)
	if st, _ := e.Get(context.Background(), w.ID); len(st.History) != 2 {
		t.Errorf("an event for no change: %+v", st.History[0])
	}
	waitPending(t, e, 0)
	select {
	case r := <-rc.got:
		t.Errorf("an alert for no change: %s", r.body)
	default:
	}
}

// waitPending waits (at most 10 s: a deadline for a hung test) for the
// outbox to hold want alerts.
func waitPending(t *testing.T, e *Engine, want int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		n := e.Pending(context.Background())
		if n == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d alerts in the outbox, want %d", n, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestRetries: the receiver answers 500 twice; the alert comes a third
// time, the same body and delivery id each time.
func TestRetries(t *testing.T) {
	clk := newClock()
	s := newSite(t, "User-agent: *\nAllow: /\n")
	rc := newReceiver(t, 500, 503)
	e := newEngine(t, store.NewMemory(nil), clk, nil)
	deliver(t, e)
	if _, err := e.Create(context.Background(), &Spec{Origin: s.URL, URLs: []string{"/a"}, Webhook: rc.URL}, ""); err != nil {
		t.Fatal(err)
	}
	tick(t, e, 1)
	s.set(200, "text/plain", "User-agent: *\nDisallow: /a\n")
	clk.Advance(time.Hour)
	tick(t, e, 1)
	var got []received
	for range 3 {
		got = append(got, rc.next(t))
	}
	for _, r := range got[1:] {
		if string(r.body) != string(got[0].body) || r.header.Get(DeliveryHeader) != got[0].header.Get(DeliveryHeader) {
			t.Errorf("a retry differs: %s %v", r.body, r.header)
		}
	}
	if got[0].header.Get(SignatureHeader) != "" {
		t.Error("signed without a secret")
	}
	if !strings.Contains(string(got[0].body), `"url":"/a"`) {
		t.Errorf("body %s", got[0].body)
	}
}

// TestGiveUp: a 400 is not retried; a receiver that always fails gets
// Attempts tries.
func TestGiveUp(t *testing.T) {
	clk := newClock()
	e := newEngine(t, store.NewMemory(nil), clk, func(o *Options) { o.Attempts = 3 })
	rc := newReceiver(t, 400, 500, 500, 500)
	w := &Watch{ID: "w", Webhook: rc.URL}
	d := &outboxEntry{Watch: "w", ID: "d", Body: []byte("{}")}
	if !e.send(context.Background(), w, d) {
		t.Error("a 400: not done with")
	}
	rc.next(t)
	if !e.send(context.Background(), w, d) {
		t.Error("out of tries: not done with")
	}
	for range 3 {
		rc.next(t)
	}
	if len(rc.got) != 0 {
		t.Errorf("%d tries more", len(rc.got))
	}
}

// TestDeleteStops: a deleted watch is checked no more.
func TestDeleteStops(t *testing.T) {
	clk := newClock()
	s := newSite(t, "User-agent: *\nAllow: /\n")
	rc := newReceiver(t)
	e := newEngine(t, store.NewMemory(nil), clk, nil)
	w, err := e.Create(context.Background(), &Spec{Origin: s.URL, URLs: []string{"/"}, Webhook: rc.URL}, "")
	if err != nil {
		t.Fatal(err)
	}
	tick(t, e, 1)
	if err := e.Delete(context.Background(), w.ID); err != nil {
		t.Fatal(err)
	}
	s.set(200, "text/plain", "User-agent: *\nDisallow: /\n")
	fetched := s.fetches.Load()
	clk.Advance(time.Hour)
	tick(t, e, 0)
	if n := e.Pending(context.Background()); s.fetches.Load() != fetched || n != 0 {
		t.Errorf("fetched %d times more, %d alerts", s.fetches.Load()-fetched, n)
	}
	if _, err := e.Get(context.Background(), w.ID); err == nil {
		t.Error("Get finds the deleted watch")
	}
	var we *Error
	if err := e.Delete(context.Background(), w.ID); !errors.As(err, &we) || !we.NotFound {
		t.Errorf("deleting again: %v", err)
	}
	if ws, _ := e.List(context.Background()); len(ws) != 0 {
		t.Errorf("List: %v", ws)
	}
}

// TestFetchStates: a 503, HTML and a 404 are fetch-state changes, with
// the flips each crawler's fetch policy makes of them.
func TestFetchStates(t *testing.T) {
	clk := newClock()
	s := newSite(t, "User-agent: *\nDisallow: /private/\n")
	e := newEngine(t, store.NewMemory(nil), clk, nil)
	w, err := e.Create(context.Background(), &Spec{Origin: s.URL, URLs: []string{"/", "/private/"}, Crawlers: []string{"Googlebot"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	tick(t, e, 1)
	last := func() Event {
		st, err := e.Get(context.Background(), w.ID)
		if err != nil {
			t.Fatal(err)
		}
		return st.History[0]
	}
	steps := []struct {
		status      int
		ctype, body string
		state       string
		severity    string
		flips       []string
	}{
		// Crawlers keep the copy they have through a 5xx: no flip.
		{503, "text/plain", "down", StateServerError, SeverityWarning, nil},
		{200, "text/plain", "User-agent: *\nDisallow: /private/\n", StateOK, SeverityInfo, nil},
		{200, "text/html", "<!DOCTYPE html><html><body>Not found</body></html>", StateHTML, SeverityWarning, []string{"/private/ Googlebot"}},
		{404, "text/plain", "", StateGone, SeverityWarning, nil},
		{200, "text/plain", "User-agent: *\nDisallow: /private/\n" + strings.Repeat("# padding\n", 60_000), StateTooLarge, SeverityCritical, []string{"/private/ Googlebot"}},
	}
	for _, st := range steps {
		s.set(st.status, st.ctype, st.body)
		clk.Advance(time.Hour)
		tick(t, e, 1)
		ev := last()
		if ev.Fetch == nil || ev.Fetch.After.State != st.state || ev.Severity != st.severity || !slices.Equal(flipKeys(ev.Changes), st.flips) {
			t.Errorf("%d %s: event %+v fetch %+v", st.status, st.ctype, ev, ev.Fetch)
		}
	}
}

// TestRedirectLoop: a robots.txt that redirects in a loop, or too many
// times, is a fetch-state change.
func TestRedirectLoop(t *testing.T) {
	for _, loop := range []bool{true, false} {
		var mode atomic.Bool
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case !mode.Load():
				io.WriteString(w, "User-agent: *\nDisallow: /x\n")
			case loop && r.URL.Path == "/robots.txt":
				http.Redirect(w, r, "/r", http.StatusMovedPermanently)
			case loop:
				http.Redirect(w, r, "/robots.txt", http.StatusMovedPermanently)
			default:
				http.Redirect(w, r, fmt.Sprintf("/r%d", len(r.URL.Path)), http.StatusFound)
			}
		}))
		clk := newClock()
		e := newEngine(t, store.NewMemory(nil), clk, nil)
		w, err := e.Create(context.Background(), &Spec{Origin: srv.URL, URLs: []string{"/x"}}, "")
		if err != nil {
			t.Fatal(err)
		}
		tick(t, e, 1)
		mode.Store(true)
		clk.Advance(time.Hour)
		tick(t, e, 1)
		st, _ := e.Get(context.Background(), w.ID)
		if ev := st.History[0]; ev.Fetch == nil || ev.Fetch.After.State != StateRedirect || ev.Severity != SeverityWarning {
			t.Errorf("loop %v: %+v %+v", loop, ev, ev.Fetch)
		}
		srv.Close()
	}
}

// TestClassify: the fetch states from what a fetch reports.
func TestClassify(t *testing.T) {
	tests := []struct {
		info tester.FetchInfo
		body string
		want string
	}{
		{tester.FetchInfo{Status: 200}, "User-agent: *", StateOK},
		{tester.FetchInfo{Status: 200}, "  <html><body>", StateHTML},
		{tester.FetchInfo{Status: 200, Truncated: true}, "x", StateTooLarge},
		{tester.FetchInfo{Status: 429}, "", StateRateLimited},
		{tester.FetchInfo{Status: 500}, "", StateServerError},
		{tester.FetchInfo{Status: 410}, "", StateGone},
		{tester.FetchInfo{Status: 403}, "", StateClientError},
		{tester.FetchInfo{Status: 301, Reason: "301 Moved: a redirect loop back to /robots.txt"}, "", StateRedirect},
		{tester.FetchInfo{Status: 0, Error: "dial: refused"}, "", StateUnreachable},
		{tester.FetchInfo{Refused: "10.0.0.1 is a private address"}, "", StateRefused},
	}
	for _, tc := range tests {
		if got := classify(&tc.info, []byte(tc.body)); got.State != tc.want {
			t.Errorf("%+v %q: %s, want %s", tc.info, tc.body, got.State, tc.want)
		}
	}
}

// TestOneFetchPerOrigin: the watches of one origin share a fetch, and an
// origin is fetched at most once every MinInterval.
func TestOneFetchPerOrigin(t *testing.T) {
	clk := newClock()
	s := newSite(t, "User-agent: *\nAllow: /\n")
	e := newEngine(t, store.NewMemory(nil), clk, nil)
	for range 3 {
		if _, err := e.Create(context.Background(), &Spec{Origin: s.URL, URLs: []string{"/"}, Every: "5m"}, ""); err != nil {
			t.Fatal(err)
		}
	}
	tick(t, e, 3)
	if n := s.fetches.Load(); n != 1 {
		t.Fatalf("%d fetches for 3 watches", n)
	}
	clk.Advance(time.Minute)
	if _, err := e.Create(context.Background(), &Spec{Origin: s.URL, URLs: []string{"/x"}, Every: "5m"}, ""); err != nil {
		t.Fatal(err)
	}
	tick(t, e, 0) // fetched a minute ago: the new watch waits
	clk.Advance(4 * time.Minute)
	tick(t, e, 4)
	if n := s.fetches.Load(); n != 2 {
		t.Fatalf("%d fetches, want 2", n)
	}
}

// TestBounds: the bounds and the spec's errors.
func TestBounds(t *testing.T) {
	clk := newClock()
	e := newEngine(t, store.NewMemory(nil), clk, func(o *Options) { o.MaxWatches, o.MaxPerClient, o.MaxURLs = 3, 2, 2 })
	ctx := context.Background()
	ok := &Spec{Origin: "https://example.com", URLs: []string{"/"}}
	for range 2 {
		if _, err := e.Create(ctx, ok, "10.0.0.1"); err != nil {
			t.Fatal(err)
		}
	}
	var we *Error
	if _, err := e.Create(ctx, ok, "10.0.0.1"); !errors.As(err, &we) || !we.Limit {
		t.Errorf("a third watch of one client: %v", err)
	}
	if _, err := e.Create(ctx, ok, "10.0.0.2"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Create(ctx, ok, "10.0.0.3"); !errors.As(err, &we) || !we.Limit {
		t.Errorf("a fourth watch: %v", err)
	}
	bad := []struct {
		spec  Spec
		field string
	}{
		{Spec{URLs: []string{"/"}}, "origin"},
		{Spec{Origin: "ftp://x y"}, "origin"},
		{Spec{Origin: "example.com"}, "urls"},
		{Spec{Origin: "example.com", URLs: []string{"/a", "/b", "/c"}}, "urls"},
		{Spec{Origin: "example.com", URLs: []string{"relative"}}, "urls"},
		{Spec{Origin: "example.com", URLs: []string{"https://other.example/"}}, "urls"},
		{Spec{Origin: "example.com", URLs: []string{"/"}, Crawlers: []string{"NoSuchBot"}}, "crawlers"},
		{Spec{Origin: "example.com", URLs: []string{"/"}, Crawlers: []string{"search", "ai-training", "ai-search", "seo"}}, "crawlers"},
		{Spec{Origin: "example.com", URLs: []string{"/"}, Every: "often"}, "every"},
		{Spec{Origin: "example.com", URLs: []string{"/"}, Webhook: "file:///etc/passwd"}, "webhook"},
		{Spec{Origin: "example.com", URLs: []string{"/"}, Webhook: "https://u:p@example.com/"}, "webhook"},
		{Spec{Origin: "example.com", URLs: []string{"/"}, Secret: "x"}, "secret"},
	}
	e2 := newEngine(t, store.NewMemory(nil), clk, func(o *Options) { o.MaxURLs = 2 })
	for _, b := range bad {
		if _, err := e2.Create(ctx, &b.spec, ""); !errors.As(err, &we) || we.Field != b.field {
			t.Errorf("%+v: %v, want a fault in %s", b.spec, err, b.field)
		}
	}
	// Purposes expand; a short interval is raised to the minimum.
	w, err := e2.Create(ctx, &Spec{Origin: "example.com", URLs: []string{"/"}, Crawlers: []string{"ai-training"}, Every: "1s"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Crawlers) < 3 || !slices.Contains(w.Crawlers, "GPTBot") || w.Every != DefaultMinInterval || w.Origin != "https://example.com" {
		t.Errorf("watch %+v", w)
	}
}

// TestSitemap: a sitemap's URLs on the origin are watched, up to MaxURLs;
// an index or a page is refused.
func TestSitemap(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/sitemap.xml":
			io.WriteString(w, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>`+srv.URL+`/a</loc></url><url><loc> `+srv.URL+`/b </loc></url>
<url><loc>https://elsewhere.example/c</loc></url><url><loc>`+srv.URL+`/d</loc></url></urlset>`)
		case "/index.xml":
			io.WriteString(w, `<sitemapindex><sitemap><loc>x</loc></sitemap></sitemapindex>`)
		default:
			io.WriteString(w, `<html>`)
		}
	}))
	defer srv.Close()
	e := newEngine(t, store.NewMemory(nil), newClock(), func(o *Options) { o.MaxURLs = 3 })
	w, err := e.Create(context.Background(), &Spec{Origin: srv.URL, URLs: []string{"/"}, Sitemap: srv.URL + "/sitemap.xml"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"/", srv.URL + "/a", srv.URL + "/b"}; !slices.Equal(w.URLs, want) {
		t.Errorf("URLs %q, want %q", w.URLs, want)
	}
	for _, p := range []string{"/index.xml", "/page", "/missing"} {
		var we *Error
		if _, err := e.Create(context.Background(), &Spec{Origin: srv.URL, Sitemap: srv.URL + p}, ""); !errors.As(err, &we) || we.Field != "sitemap" {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// TestLoad: the watches of a file keep their ids across starts.
func TestLoad(t *testing.T) {
	specs, err := ParseSpecs([]byte(`{"watches": [{"origin": "example.com", "urls": ["/"], "crawlers": ["search"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	st := store.NewMemory(nil)
	e := newEngine(t, st, newClock(), nil)
	a, err := e.Load(context.Background(), specs)
	if err != nil {
		t.Fatal(err)
	}
	b, err := newEngine(t, st, newClock(), nil).Load(context.Background(), specs)
	if err != nil {
		t.Fatal(err)
	}
	if a[0].ID != b[0].ID {
		t.Errorf("ids %s and %s", a[0].ID, b[0].ID)
	}
	if ws, _ := e.List(context.Background()); len(ws) != 1 {
		t.Errorf("%d watches", len(ws))
	}
	if _, err := ParseSpecs([]byte(`[{"origin": "x", "url": "/"}]`)); err == nil {
		t.Error("an unknown field is no error")
	}
}

// TestRedactWebhook: the path and query of a webhook are not shown.
func TestRedactWebhook(t *testing.T) {
	for in, want := range map[string]string{
		"https://hooks.example.net/services/T0/B0/XXXX": "https://hooks.example.net/…",
		"http://127.0.0.1:8080/":                        "http://127.0.0.1:8080",
		"https://h.example?token=x":                     "https://h.example/…",
		"":                                              "",
	} {
		if got := redactWebhook(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
