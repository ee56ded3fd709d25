package redisstore

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/internal/redistest"
	"github.com/seed53c283f5/robotstxt/store"
)

// countingSite serves a robots.txt after delay and counts the fetches.
func countingSite(t *testing.T, delay time.Duration) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			n.Add(1)
			time.Sleep(delay)
		}
		w.Write([]byte("User-agent: *\nDisallow: /private\n"))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// fleetCache is one process of a fleet: a cache on its own Fallback around
// its own client of the shared server.
func fleetCache(t *testing.T, addr string, opts *cache.Options) (*cache.Cache, *store.Fallback) {
	t.Helper()
	f := store.NewFallback(mustOpen(t, "redis://"+addr, nil), nil)
	t.Cleanup(func() { f.Close() })
	var o cache.Options
	if opts != nil {
		o = *opts
	}
	o.Store = f
	o.Fetcher = &fetch.Fetcher{Timeout: 5 * time.Second}
	return cache.New(&o), f
}

// TestFleetFetchesOnce: six caches, each on its own Fallback and client of
// one real Redis, ask about one origin at once: the site sees one fetch,
// and every cache answers with its rules.
func TestFleetFetchesOnce(t *testing.T) {
	srv := redistest.Start(t)
	site, fetches := countingSite(t, 300*time.Millisecond)
	const n = 6
	caches := make([]*cache.Cache, n)
	for i := range caches {
		caches[i], _ = fleetCache(t, srv.Addr, nil)
	}
	var wg sync.WaitGroup
	for i, c := range caches {
		for range 3 { // goroutines of one process share its in-process flight
			wg.Go(func() {
				ok, err := c.Allowed(context.Background(), "bot", site.URL+"/private/x")
				if err != nil || ok {
					t.Errorf("cache %d: Allowed = %v, %v; want false, nil", i, ok, err)
				}
			})
		}
	}
	wg.Wait()
	if got := fetches.Load(); got != 1 {
		t.Errorf("the site saw %d fetches of robots.txt from %d processes, want 1", got, n)
	}
	var leases, shared uint64
	for _, c := range caches {
		s := c.Stats()
		leases += s.Leases
		shared += s.LeaseShared
		if s.LocalFetches != 0 {
			t.Errorf("LocalFetches = %d with Redis up", s.LocalFetches)
		}
	}
	if leases != 1 || leases+shared != n {
		t.Errorf("leases taken %d, answers shared %d; want 1 and %d", leases, shared, n-1)
	}
}

// TestFleetDeadLeaseholder: a process took the lease and died (the lease is
// never released): another waits only until the lease expires, then fetches.
func TestFleetDeadLeaseholder(t *testing.T) {
	srv := redistest.Start(t)
	site, fetches := countingSite(t, 0)
	c, f := fleetCache(t, srv.Addr, &cache.Options{LeaseTTL: 20 * time.Second})
	o, err := fetch.OriginOf(site.URL)
	if err != nil {
		t.Fatal(err)
	}
	const held = 1500 * time.Millisecond
	if got, err := f.Lease(ctx, o.String(), "dead-process", held); err != nil || !got {
		t.Fatalf("Lease = %v, %v", got, err)
	}
	start := time.Now()
	ok, err := c.Allowed(context.Background(), "bot", site.URL+"/public")
	waited := time.Since(start)
	if err != nil || !ok {
		t.Fatalf("Allowed = %v, %v; want true", ok, err)
	}
	if got := fetches.Load(); got != 1 {
		t.Errorf("fetches = %d, want 1", got)
	}
	// It waited for the dead holder's lease, and not for its own bound
	// (twice its 20 s LeaseTTL).
	if waited < held-100*time.Millisecond || waited > 10*time.Second {
		t.Errorf("waited %v for a lease held %v", waited, held)
	}
	s := c.Stats()
	if s.LeaseWaits != 1 || s.Leases != 1 || s.LeaseShared != 0 {
		t.Errorf("stats %+v: want one wait, then one lease", s)
	}
}

// TestFleetRedisDown: with Redis unreachable, each process answers and
// fetches on its own, and says so.
func TestFleetRedisDown(t *testing.T) {
	srv := redistest.Start(t)
	site, fetches := countingSite(t, 100*time.Millisecond)
	const n = 3
	caches := make([]*cache.Cache, n)
	stores := make([]*store.Fallback, n)
	for i := range caches {
		caches[i], stores[i] = fleetCache(t, srv.Addr, nil)
	}
	srv.Kill()
	var wg sync.WaitGroup
	for i, c := range caches {
		wg.Go(func() {
			ok, err := c.Allowed(context.Background(), "bot", site.URL+"/private/x")
			if err != nil || ok {
				t.Errorf("cache %d: Allowed = %v, %v; want false, nil", i, ok, err)
			}
		})
	}
	wg.Wait()
	if got := fetches.Load(); got != n {
		t.Errorf("fetches = %d with Redis down, want one per process (%d)", got, n)
	}
	for i, c := range caches {
		if s := c.Stats(); s.LocalFetches != 1 {
			t.Errorf("cache %d: LocalFetches = %d, want 1", i, s.LocalFetches)
		}
		if h := stores[i].Health(); !h.Degraded {
			t.Errorf("cache %d: Health %+v, want degraded", i, h)
		}
	}
}
