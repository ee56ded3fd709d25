package server

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"

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
	ln = clientip.LimitPerClient(ln, clientip.ListenerOptions{PerClient: o.MaxConnsPerClient,
		Trusted: o.TrustedProxies, Open: &s.openConns, Refused: s.metrics.connsRefused.Inc})
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
