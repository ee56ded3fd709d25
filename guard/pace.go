package guard

import (
	"sync"
	"time"
)

// paceTable keeps, per (crawler, host), when the last request the guard
// let through started: for Crawl-delay. At most max pairs; past it, the
// table starts again empty (a crawler's pace is then forgotten once).
type paceTable struct {
	mu  sync.Mutex
	m   map[paceKey]int64
	max int
}

type paceKey struct {
	crawler int32
	host    string
}

func keyOf(ci int, host string) paceKey {
	if len(host) > maxHostKey {
		host = ""
	}
	return paceKey{int32(ci), host}
}

// wait returns how long the crawler should still wait at now, before its
// next request to host, for interval: 0 when it need not.
func (t *paceTable) wait(ci int, host string, now time.Time, interval time.Duration) time.Duration {
	t.mu.Lock()
	last, ok := t.m[keyOf(ci, host)]
	t.mu.Unlock()
	if !ok {
		return 0
	}
	next := last + int64(interval)
	if n := now.UnixNano(); n < next && next > last {
		return time.Duration(next - n)
	}
	return 0
}

// admit notes a request let through at now.
func (t *paceTable) admit(ci int, host string, now time.Time) {
	k := keyOf(ci, host)
	t.mu.Lock()
	if t.m == nil || len(t.m) >= t.max {
		if _, ok := t.m[k]; !ok {
			t.m = make(map[paceKey]int64)
		}
	}
	t.m[k] = now.UnixNano()
	t.mu.Unlock()
}

// len returns the pairs kept.
func (t *paceTable) len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.m)
}
