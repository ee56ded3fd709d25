package server

import (
	"context"
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	"github.com/seed53c283f5/robotstxt/clientip"
)

// statusWriter remembers the status written.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// observe is the outermost layer: the request's deadline, the headers
// every answer carries, the log line and the metrics.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		dc := newDeadlineContext(r.Context(), s.opts.RequestTimeout)
		dc.client = s.clientOf(r)
		defer dc.stop()
		ctx := context.Context(dc)
		r = r.WithContext(ctx)
		h := w.Header()
		for _, kv := range securityHeaders {
			h[kv.key] = kv.value
		}
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			if v := recover(); v != nil {
				// An answer cut after its start (http.ErrAbortHandler):
				// counted, logged, and passed on, to break the
				// connection.
				s.metrics.observe(routeOf(r), sw.status, time.Since(start))
				s.log.LogAttrs(ctx, slog.LevelWarn, "request", slog.String("method", r.Method), slog.String("path", r.URL.Path),
					slog.String("route", routeOf(r)), slog.Int("status", sw.status), slog.Duration("elapsed", time.Since(start)),
					slog.String("client", s.clientIP(r).String()), slog.Any("aborted", v))
				panic(v)
			}
		}()
		if s.checkHost(sw, r) {
			next.ServeHTTP(sw, r)
		}
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		route := routeOf(r)
		elapsed := time.Since(start)
		s.metrics.observe(route, sw.status, elapsed)
		if !s.log.Enabled(ctx, slog.LevelInfo) {
			return
		}
		s.log.LogAttrs(ctx, slog.LevelInfo, "request", slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.String("route", route), slog.Int("status", sw.status), slog.Duration("elapsed", elapsed),
			slog.String("client", s.clientIP(r).String()))
	})
}

// securityHeaders are the headers every answer carries, their keys in
// canonical form and their values built once: the slices are shared by
// every answer (net/http only reads them; Header.Set and Add replace them
// rather than write into them).
var securityHeaders = []struct {
	key   string
	value []string
}{
	{"X-Content-Type-Options", []string{"nosniff"}},
	{"Referrer-Policy", []string{"no-referrer"}},
	{"Content-Security-Policy", []string{contentSecurityPolicy}},
	{"X-Frame-Options", []string{"DENY"}},
	{"Cross-Origin-Opener-Policy", []string{"same-origin"}},
}

// contentSecurityPolicy allows the page its own files and nothing else:
// no inline script or style, no other origin, no framing.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// clientIP is the address of the client r comes from, as clientip.Of
// decides it for every face: the connection's peer, or, when the peer is
// one of Options.TrustedProxies (none unless given), the client it
// forwards in X-Forwarded-For or X-Real-IP.
func (s *Server) clientIP(r *http.Request) netip.Addr {
	return clientip.Of(r, s.opts.TrustedProxies)
}
