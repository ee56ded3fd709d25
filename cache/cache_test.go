package cache

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store"
)

const rules = "User-agent: *\nDisallow: /private\n"

func TestFreshHitParsesOnce(t *testing.T) {
	h := newHarness(t, nil)
	srv := newServer(t, reply(200, rules))
	a := h.get(srv.URL + "/x")
	if a.Source != Network || a.Policy != fetch.Rules || a.Robots == nil || !a.ExpiresAt.Equal(epoch.Add(24*time.Hour)) {
		t.Fatalf("first answer %+v", a)
	}
	for i := 0; i < 10; i++ {
		h.clk.Advance(time.Hour)
		b := h.get(srv.URL + "/y")
		if b.Source != Cached || b.Robots != a.Robots {
			t.Fatalf("hit %d: source %v, same parse %v", i, b.Source, b.Robots == a.Robots)
		}
	}
	st := h.c.Stats()
	if srv.hits.Load() != 1 || st.Parses != 1 || st.Hits != 10 || st.Misses != 1 || st.Fetches != 1 || st.Rules != 1 {
		t.Errorf("server hits %d, stats %+v", srv.hits.Load(), st)
	}
	ok, err := h.c.Allowed(context.Background(), "Googlebot", srv.URL+"/private/a")
	if err != nil || ok {
		t.Errorf("Allowed(/private/a) = %v, %v", ok, err)
	}
	if ok, _ := h.c.Allowed(context.Background(), "Googlebot", srv.URL+"/public"); !ok {
		t.Error("/public disallowed")
	}
	// Past 24 h the copy is refreshed.
	h.clk.Advance(15 * time.Hour)
	if a := h.get(srv.URL); a.Source != Network || srv.hits.Load() != 2 {
		t.Errorf("after 25 h: %v, %d fetches", a.Source, srv.hits.Load())
	}
}

func TestAnswerDecide(t *testing.T) {
	h := newHarness(t, nil)
	srv := newServer(t, reply(200, "User-agent: *\nDisallow: /\n\nUser-agent: bingbot\nCrawl-delay: 2\nDisallow: /b\n"))
	a := h.get(srv.URL)
	if a.Allowed("Googlebot", srv.URL+"/a") || !a.Allowed("Googlebot", srv.URL+"/robots.txt") {
		t.Error("google reading")
	}
	bing, _ := robotstxt.LookupCrawler("bingbot")
	d := a.Decide(robotstxt.Query{URL: srv.URL + "/a", Crawler: &bing})
	if !d.Allowed || !d.HasCrawlDelay || d.CrawlDelay != 2 || d.Dialect != robotstxt.Bing {
		t.Errorf("bing decision %+v", d)
	}
	d = a.Decide(robotstxt.Query{URL: srv.URL + "/b", Agents: []string{"bingbot"}})
	if d.Allowed || !d.HasRule() || d.Rule.Line != 6 {
		t.Errorf("bingbot /b: %+v", d)
	}
	none := &Answer{Policy: fetch.DisallowAll, Reason: "because", Dialect: robotstxt.Google}
	if d := none.Decide(robotstxt.Query{URL: "/x", Agents: []string{"a"}}); d.Allowed || d.Reason != "because" {
		t.Errorf("disallow all: %+v", d)
	}
}

func TestCorruptEntryIsAMiss(t *testing.T) {
	h := newHarness(t, nil)
	srv := newServer(t, reply(200, rules))
	o, _ := fetch.OriginOf(srv.URL)
	for _, bad := range [][]byte{nil, {}, {0}, {2, 1}, {entryVersion}, {entryVersion, 1, 0xff}, []byte("garbage that is not an entry")} {
		h.store.Put(context.Background(), o.String(), bad, 0)
		if a := h.get(srv.URL); a.Source != Network || a.Policy != fetch.Rules {
			t.Errorf("%q: %+v", bad, a)
		}
		h.store.Put(context.Background(), o.String(), bad, 0)
	}
	if st := h.c.Stats(); st.Corrupt == 0 {
		t.Errorf("corrupt values not counted: %+v", st)
	}
	// A good entry, cut anywhere, never decodes to something else.
	h.store.Delete(context.Background(), o.String())
	h.get(srv.URL)
	good, _, _ := h.store.Get(context.Background(), o.String())
	for i := range len(good) {
		if e, err := decodeEntry(good[:i]); err == nil {
			t.Fatalf("prefix of %d bytes decoded: %+v", i, e)
		}
	}
}

func TestEntryRoundTrip(t *testing.T) {
	e := &entry{
		ID: 42, HasCopy: true, Policy: fetch.Rules, Status: 200, Reason: "200 OK", Body: []byte(rules), Truncated: true,
		Validators: fetch.Validators{ETag: `"e"`, LastModified: "Mon, 02 Jan 2006 15:04:05 GMT"},
		FetchedAt:  epoch, ValidatedAt: epoch.Add(time.Hour), ExpiresAt: epoch.Add(25 * time.Hour),
		Failures: 3, FailingSince: epoch.Add(26 * time.Hour), NextRetry: epoch.Add(27 * time.Hour),
		FailPolicy: fetch.DisallowAll, FailStatus: 503, FailReason: "down", LastAttempt: epoch.Add(26 * time.Hour),
		Trace: []fetch.Request{{URL: "http://a/robots.txt", Status: 301, Location: "http://b/robots.txt"}, {URL: "http://b/robots.txt", Status: 200, Bytes: 30, Truncated: true, CacheControl: "max-age=5", Err: "x"}},
	}
	got, err := decodeEntry(e.encode())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Body, e.Body) || got.ID != 42 || !got.FetchedAt.Equal(e.FetchedAt) || !got.NextRetry.Equal(e.NextRetry) ||
		got.Failures != 3 || got.FailReason != "down" || len(got.Trace) != 2 || got.Trace[1] != e.Trace[1] || got.Validators != e.Validators || !got.Truncated {
		t.Errorf("round trip:\n%+v\n%+v", got, e)
	}
}

func FuzzDecodeEntry(f *testing.F) {
	f.Add((&entry{HasCopy: true, Policy: fetch.Rules, Body: []byte(rules), FetchedAt: epoch}).encode())
	f.Add((&entry{Failures: 1, FailPolicy: fetch.DisallowAll, FailReason: "x", Trace: []fetch.Request{{URL: "u"}}}).encode())
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := decodeEntry(b)
		if err != nil {
			return
		}
		again, err := decodeEntry(e.encode())
		if err != nil || !bytes.Equal(again.Body, e.Body) || again.Reason != e.Reason {
			t.Fatalf("re-encoding a decoded entry: %v", err)
		}
	})
}

// failingStore fails every operation.
type failingStore struct{}

var errDown = errors.New("store down")

func (failingStore) Get(context.Context, string) ([]byte, bool, error)        { return nil, false, errDown }
func (failingStore) Put(context.Context, string, []byte, time.Duration) error { return errDown }
func (failingStore) Delete(context.Context, string) error                     { return errDown }
func (failingStore) Close() error                                             { return nil }

func TestStoreFailureStillAnswers(t *testing.T) {
	srv := newServer(t, reply(200, rules))
	c := New(&Options{Store: failingStore{}})
	a, err := c.Get(context.Background(), srv.URL)
	if err != nil || a.Policy != fetch.Rules || a.Source != Network {
		t.Fatalf("%+v %v", a, err)
	}
	if st := c.Stats(); st.StoreErrors != 3 {
		t.Errorf("store errors %d", st.StoreErrors)
	}
}

func TestZeroOptions(t *testing.T) {
	srv := newServer(t, reply(200, rules))
	c := New(nil)
	ok, err := c.Allowed(context.Background(), "x", srv.URL+"/private")
	if err != nil || ok {
		t.Errorf("%v %v", ok, err)
	}
	if _, err := c.Get(context.Background(), "not a url"); err == nil {
		t.Error("no error for a URL with no origin")
	}
	if c.Dialect() != robotstxt.Google {
		t.Error(c.Dialect())
	}
	if err := c.Forget(context.Background(), srv.URL); err != nil {
		t.Fatal(err)
	}
	c.Get(context.Background(), srv.URL)
	if srv.hits.Load() != 2 {
		t.Errorf("Forget: %d fetches", srv.hits.Load())
	}
}

func TestKeyPrefix(t *testing.T) {
	srv := newServer(t, reply(503, ""))
	mem := store.NewMemory(nil)
	google := New(&Options{Store: mem})
	yandex := New(&Options{Store: mem, KeyPrefix: "yandex ", Fetcher: &fetch.Fetcher{Dialect: robotstxt.Yandex}})
	g, _ := google.Get(context.Background(), srv.URL)
	y, _ := yandex.Get(context.Background(), srv.URL)
	if g.Policy != fetch.DisallowAll || y.Policy != fetch.AllowAll || mem.Len() != 2 {
		t.Errorf("google %v, yandex %v, %d entries", g.Policy, y.Policy, mem.Len())
	}
}

func TestCallerGivesUp(t *testing.T) {
	release := make(chan struct{})
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		<-release
		w.Write([]byte(rules))
	})
	h := newHarness(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := h.c.Get(ctx, srv.URL)
		done <- err
	}()
	for h.c.Stats().Misses == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	close(release)
	// The fetch went on and its answer was kept for the next question.
	var a *Answer
	for a == nil || a.Source != Cached {
		time.Sleep(time.Millisecond)
		if h.entry(srv.URL) != nil {
			a = h.get(srv.URL)
		}
	}
	if a.Policy != fetch.Rules || srv.hits.Load() != 1 {
		t.Errorf("%+v, %d fetches", a, srv.hits.Load())
	}
}

func TestFaultConcurrentQuestions(t *testing.T) {
	release := make(chan struct{})
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		<-release
		w.Write([]byte(rules))
	})
	h := newHarness(t, nil)
	const n = 64
	var wg sync.WaitGroup
	answers := make([]*Answer, n)
	for i := range n {
		wg.Go(func() {
			a, err := h.c.Get(context.Background(), srv.URL+"/page"+strings.Repeat("x", i))
			if err != nil {
				t.Error(err)
			}
			answers[i] = a
		})
	}
	for h.c.Stats().Misses < n {
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if srv.hits.Load() != 1 {
		t.Fatalf("%d fetches for %d concurrent questions", srv.hits.Load(), n)
	}
	for _, a := range answers {
		if a == nil || a.Policy != fetch.Rules || a.Robots != answers[0].Robots {
			t.Fatalf("answer %+v", a)
		}
	}
	if e := h.entry(srv.URL); e == nil || !e.HasCopy || string(e.Body) != rules {
		t.Errorf("stored %+v", e)
	}
}

// TestAnswerForDialects: an answer fetched with Google's policy is read by
// each question with its own dialect's fetch policy (as check -u reads
// it), and a question about a product token in Google's dialect whatever
// the cache's: cache.Decider gave a token the answer's dialect, bulk and
// check Google's.
func TestAnswerForDialects(t *testing.T) {
	baidu, _ := robotstxt.LookupCrawler("Baiduspider")
	yandex, _ := robotstxt.LookupCrawler("YandexBot")
	google, _ := robotstxt.LookupCrawler("Googlebot")
	for _, c := range []struct {
		status               int
		google, baidu, yandx bool
	}{
		{401, true, false, true},
		{403, true, false, true},
		{404, true, true, true},
		{429, false, false, true},
		{503, false, false, true},
	} {
		srv := newServer(t, reply(c.status, ""))
		a, err := New(nil).Get(context.Background(), srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []struct {
			cr   *robotstxt.Crawler
			want bool
		}{{&google, c.google}, {&baidu, c.baidu}, {&yandex, c.yandx}} {
			d := a.Decider(robotstxt.Query{Crawler: w.cr})
			if got := d.Decide("/x").Allowed; got != w.want {
				t.Errorf("%d, %s: allowed %v, want %v (%s)", c.status, w.cr.Name, got, w.want, d.Answer().Reason)
			}
			if d.Answer().Dialect != w.cr.Dialect {
				t.Errorf("%d, %s: read with %v's fetch policy", c.status, w.cr.Name, d.Answer().Dialect)
			}
		}
		// -d sets one policy for all: Baiduspider read as Google reads.
		if got := a.Decide(robotstxt.Query{URL: "/x", Crawler: &baidu, Dialect: robotstxt.Google}).Allowed; got != c.google {
			t.Errorf("%d, Baiduspider in google: allowed %v", c.status, got)
		}
	}
	// A token reads in Google's dialect, even from a cache of Baidu's
	// policy: the first match would be Baidu's reading.
	srv := newServer(t, reply(200, "User-agent: *\nDisallow: /\nAllow: /a\n"))
	a, err := New(&Options{Fetcher: &fetch.Fetcher{Dialect: robotstxt.Baidu}, KeyPrefix: "baidu "}).Get(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if d := a.Decide(robotstxt.Query{URL: "/a", Agents: []string{"MyBot"}}); !d.Allowed || d.Dialect != robotstxt.Google {
		t.Errorf("a token: %v in %v, want allowed in google", d.Allowed, d.Dialect)
	}
	// Allowed still reads in the answer's dialect, as it says.
	if a.Allowed("MyBot", "/a") {
		t.Error("Allowed in the answer's dialect (baidu): /a should be disallowed by the first match")
	}
}

// TestAnswerForKeeps: what the cache decided beside the status is every
// dialect's: a copy served stale after a failed refresh, and an origin
// given up on (allowed after GiveUp unreachable), stay as they are for
// YandexBot and Baiduspider too.
func TestAnswerForKeeps(t *testing.T) {
	var code atomic.Int32 // the status served
	code.Store(200)
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(int(code.Load()))
		if code.Load() == 200 {
			w.Write([]byte("User-agent: *\nDisallow: /x\n"))
		}
	})
	h := newHarness(t, nil)
	h.get(srv.URL)
	code.Store(503)
	h.clk.Advance(25 * time.Hour)
	a := h.get(srv.URL)
	if a.Source != StaleCache {
		t.Fatalf("source %v, want a stale copy", a.Source)
	}
	// Yandex reads a 503 as allow all; the stale copy's rules hold.
	yandex, _ := robotstxt.LookupCrawler("YandexBot")
	if a.For(robotstxt.Yandex) != a || a.Decide(robotstxt.Query{URL: "/x", Crawler: &yandex}).Allowed {
		t.Error("a stale copy re-read for YandexBot")
	}

	srv2 := newServer(t, reply(503, ""))
	h2 := newHarness(t, nil)
	h2.c = New(&Options{Store: h2.store, Now: h2.clk.Now, GiveUp: 30 * time.Second, Fetcher: &fetch.Fetcher{Now: h2.clk.Now}})
	h2.get(srv2.URL)
	h2.clk.Advance(45 * time.Second) // past GiveUp, before the retry
	a = h2.get(srv2.URL)
	if a.Policy != fetch.AllowAll {
		t.Fatalf("after GiveUp: %v, want allow-all", a.Policy)
	}
	if b := a.For(robotstxt.Baidu); b.Policy != fetch.AllowAll {
		t.Errorf("given up on, for Baidu: %v (%s)", b.Policy, b.Reason)
	}
}
