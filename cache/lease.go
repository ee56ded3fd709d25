package cache

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store"
)

// The backoff of a process waiting for another's fetch: it reads the store
// after leasePollMin, then after twice as long, up to leasePollMax.
const (
	leasePollMin = 10 * time.Millisecond
	leasePollMax = 250 * time.Millisecond
)

// initLease sets up leasing when the store is shared: a store.Leaser, unless
// it has a method Shared() bool that says false (boltstore's: one process
// holds the file).
func (c *Cache) initLease() {
	l, ok := c.store.(store.Leaser)
	if !ok {
		return
	}
	if s, ok := c.store.(interface{ Shared() bool }); ok && !s.Shared() {
		return // one process holds it (a bbolt file): leases add only writes
	}
	c.leaser = l
	o := &c.opts
	if o.LeaseTTL <= 0 {
		t := c.fetcher.Timeout
		if t <= 0 {
			t = fetch.DefaultTimeout
		}
		o.LeaseTTL = t + 5*time.Second
	}
	c.owner = o.LeaseOwner
	if c.owner == "" {
		var b [12]byte
		rand.Read(b[:])
		c.owner = "cache-" + hex.EncodeToString(b[:])
	}
}

// takeLease takes the lease on key before a fetch. held says whether this
// cache holds it (and must release it); a non-nil answer is another
// process's result, found while waiting for its lease: the first entry
// read from the store that usable turns into an answer. With held false
// and no answer, the caller fetches without a lease: the store failed, or
// the wait lasted twice LeaseTTL.
func (c *Cache) takeLease(ctx context.Context, key string, usable func(*entry) *Answer) (held bool, a *Answer) {
	ttl := c.opts.LeaseTTL
	// The wait is on the wall clock: the lease expires on the store's.
	deadline := time.Now().Add(2 * ttl)
	delay := leasePollMin
	waited := false
	for {
		got, err := c.leaser.Lease(ctx, key, c.owner, ttl)
		if err != nil {
			c.stats.storeErrors.Add(1)
			if waited {
				c.stats.leaseExpired.Add(1)
			}
			return false, nil
		}
		if got {
			c.stats.leases.Add(1)
			if c.localLease(key) {
				c.stats.localFetches.Add(1)
			}
			return true, nil
		}
		if !waited {
			waited = true
			c.stats.leaseWaits.Add(1)
		}
		if !time.Now().Before(deadline) {
			c.stats.leaseExpired.Add(1)
			return false, nil
		}
		t := time.NewTimer(delay)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return false, nil
		}
		delay = min(2*delay, leasePollMax)
		if a := usable(c.load(ctx, key)); a != nil {
			c.stats.leaseShared.Add(1)
			return false, a
		}
	}
}

// releaseLease gives up the lease on key once the result is stored.
func (c *Cache) releaseLease(ctx context.Context, key string) {
	if err := c.leaser.Release(context.WithoutCancel(ctx), key, c.owner); err != nil {
		c.stats.storeErrors.Add(1)
	}
}

// localLease reports whether a lease on key was granted by a fallback
// store in this process rather than by the shared one: per key when the
// store can say (a Redis Cluster with one master down degrades only that
// master's keys), else by the store's health as a whole.
func (c *Cache) localLease(key string) bool {
	if kr, ok := c.store.(store.KeyReporter); ok {
		return kr.KeyDegraded(key)
	}
	r, ok := c.store.(store.Reporter)
	return ok && r.Health().Degraded
}
