package webbotauth

import (
	"sync"
	"time"
)

// DefaultMaxNonces bounds the nonces a Verifier remembers.
const DefaultMaxNonces = 100000

// nonces remembers the nonces of verified signatures until their
// signatures expire, to refuse a second use (a replay). It holds at most
// max entries: past that the oldest is forgotten first (a replay of a
// forgotten nonce is then not caught; Result says the memory is bounded).
type nonces struct {
	mu    sync.Mutex
	max   int
	until map[string]time.Time
	order []string // insertion order; head is the oldest
	head  int
}

func newNonces(max int) *nonces {
	if max <= 0 {
		max = DefaultMaxNonces
	}
	return &nonces{max: max, until: map[string]time.Time{}}
}

// seen reports whether key was recorded and is still within its lifetime;
// if not, it records key until the given time. The check and the record
// are one step.
func (n *nonces) seen(key string, until, now time.Time) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if t, ok := n.until[key]; ok && now.Before(t) {
		return true
	}
	// Forget what has expired at the head, and the oldest when full.
	for n.head < len(n.order) {
		k := n.order[n.head]
		t, ok := n.until[k]
		if ok && now.Before(t) && len(n.until) < n.max {
			break
		}
		if ok {
			delete(n.until, k)
		}
		n.order[n.head] = ""
		n.head++
	}
	if n.head > len(n.order)/2 && n.head > 1024 {
		n.order = append([]string(nil), n.order[n.head:]...)
		n.head = 0
	}
	if _, ok := n.until[key]; !ok {
		n.order = append(n.order, key)
	}
	n.until[key] = until
	return false
}

// len returns the nonces remembered.
func (n *nonces) len() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.until)
}
