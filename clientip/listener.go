package clientip

import (
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
)

// Key is the client an address stands for in per-client bounds: the
// address itself, or for IPv6 its /64 (one subscriber's network, which
// hands its hosts as many addresses as they like).
func Key(a netip.Addr) netip.Addr {
	if a.Is6() && !a.Is4In6() {
		p, _ := a.WithZone("").Prefix(64)
		return p.Addr()
	}
	return a.Unmap()
}

// ListenerOptions says how LimitPerClient counts.
type ListenerOptions struct {
	// PerClient is how many connections one client (Key of the peer) may
	// hold open; 0 counts without bounding.
	PerClient int
	// Trusted peers (the proxies in front) carry many clients'
	// connections: they are counted but never refused.
	Trusted Trusted
	// Open, when set, is kept equal to the connections open.
	Open *atomic.Int64
	// Refused, when set, is called for each connection closed at once.
	Refused func()
}

// LimitPerClient returns a listener that counts ln's open connections per
// client and closes at once a connection of a client that holds PerClient
// already. A connection is counted before any request names the client
// behind it: the client is its peer.
func LimitPerClient(ln net.Listener, o ListenerOptions) net.Listener {
	return &countingListener{Listener: ln, o: o, clients: map[netip.Addr]int{}}
}

type countingListener struct {
	net.Listener
	o       ListenerOptions
	mu      sync.Mutex
	clients map[netip.Addr]int
}

func (l *countingListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		peer := Peer(c.RemoteAddr().String())
		client := Key(peer)
		l.mu.Lock()
		if l.o.PerClient > 0 && l.clients[client] >= l.o.PerClient && !l.o.Trusted.Contains(peer) {
			l.mu.Unlock()
			if l.o.Refused != nil {
				l.o.Refused()
			}
			c.Close()
			continue
		}
		l.clients[client]++
		l.mu.Unlock()
		if l.o.Open != nil {
			l.o.Open.Add(1)
		}
		return &countedConn{Conn: c, l: l, client: client}, nil
	}
}

// countedConn is a connection of a countingListener.
type countedConn struct {
	net.Conn
	l      *countingListener
	client netip.Addr
	once   sync.Once
}

// Close counts the connection closed before it closes it: closing it
// frees its place under a bound of all connections (netutil.LimitListener
// around the listener), and the next connection accepted in that place
// must not be counted beside it.
func (c *countedConn) Close() error {
	c.once.Do(func() {
		if c.l.o.Open != nil {
			c.l.o.Open.Add(-1)
		}
		c.l.mu.Lock()
		if c.l.clients[c.client]--; c.l.clients[c.client] <= 0 {
			delete(c.l.clients, c.client)
		}
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}
