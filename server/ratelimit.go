package server

import (
	"context"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"github.com/seed53c283f5/robotstxt/clientip"
	"golang.org/x/time/rate"
)

// limiter is a token bucket per client address, for at most max clients:
// past that, the client seen least recently is forgotten (it starts again
// with a full bucket, which an attacker with many addresses gets anyway).
type limiter struct {
	rate  rate.Limit
	burst int
	max   int

	mu      sync.Mutex
	clients map[netip.Addr]*client
	// A list of clients by last use, most recent at head.
	head, tail *client
}

type client struct {
	addr       netip.Addr
	lim        *rate.Limiter
	prev, next *client
}

func newLimiter(r rate.Limit, burst, max int) *limiter {
	return &limiter{rate: r, burst: burst, max: max, clients: make(map[netip.Addr]*client)}
}

// allow reports whether addr may make a request at now, and if not, how
// long it must wait for one.
func (l *limiter) allow(addr netip.Addr, now time.Time) (bool, time.Duration) {
	addr = clientKey(addr)
	l.mu.Lock()
	c := l.clients[addr]
	if c == nil {
		c = &client{addr: addr, lim: rate.NewLimiter(l.rate, l.burst)}
		l.clients[addr] = c
		if len(l.clients) > l.max {
			old := l.tail
			l.unlink(old)
			delete(l.clients, old.addr)
		}
	} else {
		l.unlink(c)
	}
	l.pushFront(c)
	r := c.lim.ReserveN(now, 1)
	l.mu.Unlock()
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// clientOf is the client a request comes from, the one key of every bound
// per client (the rate limit, the wrong tokens, the shares of memory in
// flight and of outbound fetches, the watches a client may keep): the
// client's address (clientIP), a whole IPv6 /64 counting as one client.
// The server has one bearer token, which every client that holds it
// shares, so a token tells clients apart no better than nothing: the
// address does.
func (s *Server) clientOf(r *http.Request) netip.Addr { return clientKey(s.clientIP(r)) }

// clientKeyOf is clientOf as text ("192.0.2.1", "2001:db8:1:2::"): the
// client's name where a bound per client is kept by another package (the
// watches' per-client bound).
func (s *Server) clientKeyOf(r *http.Request) string { return s.clientOf(r).String() }

// clientKey is the address a client is known by: one client holds a
// whole IPv6 /64.
func clientKey(addr netip.Addr) netip.Addr { return clientip.Key(addr) }

func (l *limiter) unlink(c *client) {
	if c.prev != nil {
		c.prev.next = c.next
	} else if l.head == c {
		l.head = c.next
	}
	if c.next != nil {
		c.next.prev = c.prev
	} else if l.tail == c {
		l.tail = c.prev
	}
	c.prev, c.next = nil, nil
}

func (l *limiter) pushFront(c *client) {
	c.next = l.head
	if l.head != nil {
		l.head.prev = c
	}
	l.head = c
	if l.tail == nil {
		l.tail = c
	}
}

// len is how many clients are remembered.
func (l *limiter) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.clients)
}

// exhausted reports whether addr has no request left at now, without
// taking one, and if so how long it must wait for one. A client not
// remembered has its whole burst.
func (l *limiter) exhausted(addr netip.Addr, now time.Time) (bool, time.Duration) {
	addr = clientKey(addr)
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.clients[addr]
	if c == nil {
		return false, 0
	}
	if tokens := c.lim.TokensAt(now); tokens < 1 {
		return true, time.Duration((1 - tokens) / float64(l.rate) * float64(time.Second))
	}
	return false, 0
}

// clientCtxKey is the context key of a request's client (clientFrom).
type clientCtxKey struct{}

// clientFrom is the client of the request ctx belongs to, as clientOf
// named it when the request came in; false for work of the server's own
// (the watches' checks).
func clientFrom(ctx context.Context) (netip.Addr, bool) {
	if a, ok := ctx.Value(clientCtxKey{}).(*netip.Addr); ok && a.IsValid() {
		return *a, true
	}
	return netip.Addr{}, false
}
