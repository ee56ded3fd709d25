package cache

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/store"
)

// leaseCounter is a memory store with leases that counts them.
type leaseCounter struct {
	*store.Memory
	leases, releases atomic.Int64
}

func (l *leaseCounter) Lease(context.Context, string, string, time.Duration) (bool, error) {
	l.leases.Add(1)
	return true, nil
}

func (l *leaseCounter) Release(context.Context, string, string) error {
	l.releases.Add(1)
	return nil
}

// localStore is a leaseCounter that says one process holds it.
type localStore struct{ *leaseCounter }

func (localStore) Shared() bool { return false }

// TestLeaseOnlyOnSharedStores: a store.Leaser is leased before each fetch,
// and released after; one that says it is not shared is not.
func TestLeaseOnlyOnSharedStores(t *testing.T) {
	srv := newServer(t, reply(200, "User-agent: *\nDisallow: /x\n"))
	for _, local := range []bool{false, true} {
		lc := &leaseCounter{Memory: store.NewMemory(nil)}
		var st store.Store = lc
		if local {
			st = localStore{lc}
		}
		c := New(&Options{Store: st})
		if ok, err := c.Allowed(context.Background(), "bot", srv.URL+"/x"); err != nil || ok {
			t.Fatalf("Allowed = %v, %v", ok, err)
		}
		want := int64(1)
		if local {
			want = 0
		}
		if lc.leases.Load() != want || lc.releases.Load() != want {
			t.Errorf("local %v: %d leases, %d releases; want %d", local, lc.leases.Load(), lc.releases.Load(), want)
		}
		if s := c.Stats(); s.Leases != uint64(want) {
			t.Errorf("local %v: Stats.Leases = %d", local, s.Leases)
		}
	}
}

// partlyDegraded is a leasing store whose keys on one host are answered by
// a fallback (as a Redis Cluster with one master down), and that says so
// both per key and, as a whole, in its health.
type partlyDegraded struct {
	*leaseCounter
	down string // the host whose keys are degraded
}

func (p partlyDegraded) KeyDegraded(key string) bool { return strings.Contains(key, p.down) }

func (p partlyDegraded) Health() store.Health { return store.Health{Degraded: true} }

// TestLocalFetchesPerKey: with a store that reports degradation per key, a
// lease counts as a local fetch only for the keys a fallback answers, not
// for every key while any part is down.
func TestLocalFetchesPerKey(t *testing.T) {
	down := newServer(t, reply(200, "User-agent: *\nDisallow: /x\n"))
	up := newServer(t, reply(200, "User-agent: *\nDisallow: /x\n"))
	st := partlyDegraded{&leaseCounter{Memory: store.NewMemory(nil)}, strings.TrimPrefix(down.URL, "http://")}
	c := New(&Options{Store: st})
	for _, u := range []string{down.URL, up.URL} {
		if _, err := c.Allowed(context.Background(), "bot", u+"/x"); err != nil {
			t.Fatal(err)
		}
	}
	if s := c.Stats(); s.Leases != 2 || s.LocalFetches != 1 {
		t.Errorf("Stats: %d leases, %d local fetches; want 2 and 1 (the degraded origin's only)", s.Leases, s.LocalFetches)
	}
}
