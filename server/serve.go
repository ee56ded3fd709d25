package server

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/seed53c283f5/robotstxt/clientip"
	"golang.org/x/net/netutil"
)

// Serve answers the connections of ln until ctx ends, then shuts down
// gracefully: it stops accepting, lets the requests in flight finish (for
// at most ShutdownTimeout) and returns nil, or the error that stopped it.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	o := &s.opts
	s.hosts.listening(ln.Addr())
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: o.ReadHeaderTimeout,
		ReadTimeout:       o.ReadTimeout,
		WriteTimeout:      o.WriteTimeout,
		IdleTimeout:       o.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	if o.MaxConns > 0 {
		ln = netutil.LimitListener(ln, o.MaxConns)
	}
	ln = &countingListener{Listener: ln, open: &s.openConns, perClient: o.MaxConnsPerClient,
		trusted: o.TrustedProxies, clients: map[netip.Addr]int{}, refused: s.metrics.connsRefused}
	done := make(chan error, 1)
	stopWatches := s.startWatches(ctx)
	defer stopWatches()
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	s.log.Info("shutting down: finishing the requests in flight", "timeout", o.ShutdownTimeout)
	sctx, cancel := context.WithTimeout(context.Background(), o.ShutdownTimeout)
	defer cancel()
	err := hs.Shutdown(sctx)
	<-done
	s.transport.CloseIdleConnections()
	if err != nil {
		return fmt.Errorf("server: shutdown: %w", err)
	}
	return nil
}

// countingListener counts the connections of its listener that are open,
// in all and per client, and closes at once a connection of a client that
// holds perClient already (when perClient > 0). A connection is counted
// before any request names the client behind it: the client is its peer,
// and a trusted proxy's connections, which carry many clients' requests,
// are bounded by MaxConns alone.
type countingListener struct {
	net.Listener
	open      *atomic.Int64
	perClient int
	trusted   clientip.Trusted
	refused   prometheus.Counter

	mu      sync.Mutex
	clients map[netip.Addr]int
}

func (l *countingListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		peer := clientip.Peer(c.RemoteAddr().String())
		client := clientKey(peer)
		l.mu.Lock()
		if l.perClient > 0 && l.clients[client] >= l.perClient && !l.trusted.Contains(peer) {
			l.mu.Unlock()
			l.refused.Inc()
			c.Close()
			continue
		}
		l.clients[client]++
		l.mu.Unlock()
		l.open.Add(1)
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
// frees its place under MaxConns (netutil.LimitListener), and the next
// connection accepted in that place must not be counted beside it.
func (c *countedConn) Close() error {
	c.once.Do(func() {
		c.l.open.Add(-1)
		c.l.mu.Lock()
		if c.l.clients[c.client]--; c.l.clients[c.client] <= 0 {
			delete(c.l.clients, c.client)
		}
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}
