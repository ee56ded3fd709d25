package cache

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store"
)

// refresh calls Refresh and fails the test on an error.
func (h *harness) refresh(rawURL string) *Answer {
	h.t.Helper()
	a, err := h.c.Refresh(context.Background(), rawURL)
	if err != nil {
		h.t.Fatalf("Refresh(%s): %v", rawURL, err)
	}
	return a
}

// editableSite serves a robots.txt that the test changes, with an ETag
// naming its version, and answers a conditional request for the current
// version with 304.
type editableSite struct {
	*server
	mu          sync.Mutex
	body, etag  string
	status      int
	conditional atomic.Int64
}

func newEditableSite(t *testing.T, body string) *editableSite {
	s := &editableSite{body: body, etag: `"v1"`, status: 200}
	s.server = newServer(t, func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		body, etag, status := s.body, s.etag, s.status
		s.mu.Unlock()
		if status != 200 {
			w.WriteHeader(status)
			return
		}
		if r.Header.Get("If-None-Match") != "" {
			s.conditional.Add(1)
			if r.Header.Get("If-None-Match") == etag {
				w.WriteHeader(http.StatusNotModified)
				return
			}
		}
		w.Header().Set("ETag", etag)
		w.Write([]byte(body))
	})
	return s
}

func (s *editableSite) set(status int, body, etag string) {
	s.mu.Lock()
	s.status, s.body, s.etag = status, body, etag
	s.mu.Unlock()
}

// TestRefreshFetchesNow: a site owner who changes the file sees the new
// one with Refresh, where Get keeps the copy for 24 hours; the new copy
// then answers Get.
func TestRefreshFetchesNow(t *testing.T) {
	h := newHarness(t, nil)
	site := newEditableSite(t, rules)
	h.get(site.URL)
	site.set(200, "User-agent: *\nDisallow: /\n", `"v2"`)
	h.clk.Advance(time.Hour)
	if a := h.get(site.URL); a.Source != Cached || !a.Allowed("bot", site.URL+"/public") {
		t.Fatalf("Get within 24 h: %v, want the old copy from the cache", a.Source)
	}
	a := h.refresh(site.URL + "/any/page")
	wantPolicy(t, a, fetch.Rules, Network)
	if a.Allowed("bot", site.URL+"/public") || !a.FetchedAt.Equal(epoch.Add(time.Hour)) || !a.ExpiresAt.Equal(epoch.Add(25*time.Hour)) {
		t.Errorf("Refresh: the old rules, or fetched %v expires %v", a.FetchedAt, a.ExpiresAt)
	}
	if site.conditional.Load() != 1 {
		t.Errorf("%d conditional requests, want 1 (If-None-Match of the copy)", site.conditional.Load())
	}
	if b := h.get(site.URL); b.Source != Cached || b.Robots != a.Robots {
		t.Errorf("Get after Refresh: %v, same parse %v", b.Source, b.Robots == a.Robots)
	}
	st := h.c.Stats()
	if site.hits.Load() != 2 || st.Refreshes != 1 || st.Fetches != 2 || st.Hits != 2 || st.Misses != 1 {
		t.Errorf("%d requests, stats %+v", site.hits.Load(), st)
	}
}

// TestRefresh304: Refresh of an unchanged file asks conditionally; the 304
// keeps the copy, fresh again from now.
func TestRefresh304(t *testing.T) {
	h := newHarness(t, nil)
	site := newEditableSite(t, rules)
	first := h.get(site.URL)
	h.clk.Advance(5 * time.Hour)
	a := h.refresh(site.URL)
	wantPolicy(t, a, fetch.Rules, Network)
	if site.conditional.Load() != 1 || a.Robots != first.Robots || !strings.Contains(a.Reason, "304") {
		t.Errorf("conditional %d, same parse %v, reason %q", site.conditional.Load(), a.Robots == first.Robots, a.Reason)
	}
	if !a.FetchedAt.Equal(epoch) || !a.ExpiresAt.Equal(epoch.Add(29*time.Hour)) {
		t.Errorf("fetched %v, expires %v: want the copy of %v, fresh until %v", a.FetchedAt, a.ExpiresAt, epoch, epoch.Add(29*time.Hour))
	}
	wantCopy(t, h.entry(site.URL), fetch.Rules, 24*time.Hour)
}

// TestRefreshBypassesCachedFailure: a failure waits for its retry in Get,
// not in Refresh.
func TestRefreshBypassesCachedFailure(t *testing.T) {
	h := newHarness(t, nil)
	site := newEditableSite(t, rules)
	site.set(503, "", "")
	wantPolicy(t, h.get(site.URL), fetch.DisallowAll, Network)
	site.set(200, rules, `"v1"`)
	wantPolicy(t, h.get(site.URL), fetch.DisallowAll, Cached)
	wantPolicy(t, h.refresh(site.URL), fetch.Rules, Network)
	wantCopy(t, h.entry(site.URL), fetch.Rules, 24*time.Hour)
	if site.hits.Load() != 2 {
		t.Errorf("%d requests, want 2", site.hits.Load())
	}
}

// TestRefreshFailureServesStale: a Refresh that fails keeps the copy,
// served stale, and begins the failure streak.
func TestRefreshFailureServesStale(t *testing.T) {
	h := newHarness(t, nil)
	site := newEditableSite(t, rules)
	first := h.get(site.URL)
	site.set(500, "", "")
	a := h.refresh(site.URL)
	wantPolicy(t, a, fetch.Rules, StaleCache)
	if a.Robots != first.Robots || !strings.Contains(a.Reason, "refreshing it failed 1 time(s)") {
		t.Errorf("same parse %v, reason %q", a.Robots == first.Robots, a.Reason)
	}
	if e := h.entry(site.URL); e == nil || !e.HasCopy || e.Failures != 1 {
		t.Errorf("stored %+v", e)
	}
	if st := h.c.Stats(); st.Stale != 1 {
		t.Errorf("stats %+v", st)
	}
}

// TestRefreshConcurrentShareOneFetch: refreshes asked at once, with a
// fresh copy in the store, share one fetch.
func TestRefreshConcurrentShareOneFetch(t *testing.T) {
	release := make(chan struct{})
	var n atomic.Int64
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) > 1 {
			<-release
		}
		w.Write([]byte(rules))
	})
	h := newHarness(t, nil)
	h.get(srv.URL)
	const callers = 16
	var wg sync.WaitGroup
	answers := make([]*Answer, callers)
	for i := range callers {
		wg.Go(func() {
			a, err := h.c.Refresh(context.Background(), srv.URL)
			if err != nil {
				t.Error(err)
			}
			answers[i] = a
		})
	}
	for h.c.Stats().Refreshes < callers || srv.hits.Load() < 2 {
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if srv.hits.Load() != 2 {
		t.Fatalf("%d requests: the first Get and %d for %d concurrent refreshes, want 1", srv.hits.Load(), srv.hits.Load()-1, callers)
	}
	for _, a := range answers {
		if a == nil || a.Source != Network || a.Robots != answers[0].Robots {
			t.Fatalf("answer %+v", a)
		}
	}
}

// sharedStore is a memory store shared by the caches of a fleet, with
// leases: one owner holds a key until it releases it.
type sharedStore struct {
	*store.Memory
	mu     sync.Mutex
	leases map[string]string
}

func (s *sharedStore) Lease(_ context.Context, key, owner string, _ time.Duration) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if o, ok := s.leases[key]; ok && o != owner {
		return false, nil
	}
	s.leases[key] = owner
	return true, nil
}

func (s *sharedStore) Release(_ context.Context, key, owner string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.leases[key] == owner {
		delete(s.leases, key)
	}
	return nil
}

// TestRefreshFleetSharesTheLeaseHoldersFetch: a process whose Refresh
// finds another's lease on the origin waits for the result the other
// stores, not for the copy already in the store, and does not fetch.
func TestRefreshFleetSharesTheLeaseHoldersFetch(t *testing.T) {
	release := make(chan struct{})
	var n atomic.Int64
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Write([]byte(rules))
			return
		}
		<-release
		w.Write([]byte("User-agent: *\nDisallow: /\n"))
	})
	shared := &sharedStore{Memory: store.NewMemory(nil), leases: map[string]string{}}
	a := New(&Options{Store: shared, LeaseOwner: "a", LeaseTTL: time.Minute})
	b := New(&Options{Store: shared, LeaseOwner: "b", LeaseTTL: time.Minute})
	ctx := context.Background()
	if _, err := a.Get(ctx, srv.URL); err != nil {
		t.Fatal(err)
	}
	done := make(chan *Answer, 2)
	go func() {
		ans, err := a.Refresh(ctx, srv.URL)
		if err != nil {
			t.Error(err)
		}
		done <- ans
	}()
	for srv.hits.Load() < 2 { // a holds the lease and fetches
		time.Sleep(time.Millisecond)
	}
	go func() {
		ans, err := b.Refresh(ctx, srv.URL)
		if err != nil {
			t.Error(err)
		}
		done <- ans
	}()
	for b.Stats().LeaseWaits == 0 {
		time.Sleep(time.Millisecond)
	}
	close(release)
	for range 2 {
		ans := <-done
		if ans == nil || ans.Source != Network || ans.Allowed("bot", srv.URL+"/public") {
			t.Errorf("answer %+v: want the new rules, fetched now", ans)
		}
	}
	if srv.hits.Load() != 2 {
		t.Errorf("%d requests, want 2 (the first Get, and a's Refresh shared with b)", srv.hits.Load())
	}
	if st := b.Stats(); st.LeaseShared != 1 || st.Fetches != 0 {
		t.Errorf("b's stats %+v", st)
	}
}

// refusedError is what an address guard returns: a Refusal.
type refusedError struct{ addr string }

func (e *refusedError) Error() string   { return "guard: " + e.Refusal() }
func (e *refusedError) Refusal() string { return e.addr + " is a loopback address" }

// TestRefusedFetchIsNotStored: a fetch this side refused says nothing
// about the site: no failure streak begins, a copy stays, and the answer
// carries the Refusal.
func TestRefusedFetchIsNotStored(t *testing.T) {
	var refuse atomic.Bool
	dialer := &net.Dialer{}
	f := &fetch.Fetcher{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		if refuse.Load() {
			return nil, &refusedError{addr: addr}
		}
		return dialer.DialContext(ctx, network, addr)
	}}
	h := newHarness(t, f)
	srv := newServer(t, reply(200, rules))
	refuse.Store(true)
	for _, ask := range []func(string) *Answer{h.get, h.refresh} {
		a := ask(srv.URL)
		wantPolicy(t, a, fetch.DisallowAll, Network)
		var r Refusal
		if !errors.As(a.Err, &r) || !strings.Contains(a.Reason, "is a loopback address") || !a.ExpiresAt.IsZero() {
			t.Errorf("refused answer: err %v, reason %q, expires %v", a.Err, a.Reason, a.ExpiresAt)
		}
		if e := h.entry(srv.URL); e != nil {
			t.Errorf("a refused fetch was stored: %+v", e)
		}
	}
	refuse.Store(false)
	wantPolicy(t, h.get(srv.URL), fetch.Rules, Network)
	srv.CloseClientConnections() // the next fetch dials
	refuse.Store(true)
	wantPolicy(t, h.refresh(srv.URL), fetch.DisallowAll, Network)
	wantCopy(t, h.entry(srv.URL), fetch.Rules, 24*time.Hour)
	refuse.Store(false)
	wantPolicy(t, h.get(srv.URL), fetch.Rules, Cached)
	if st := h.c.Stats(); st.Refused != 3 || st.Unreachable != 0 || srv.hits.Load() != 1 {
		t.Errorf("%d requests, stats %+v", srv.hits.Load(), st)
	}
}
