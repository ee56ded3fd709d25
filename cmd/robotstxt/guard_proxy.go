package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/seed53c283f5/robotstxt/clientip"
)

// guardProxy is the reverse proxy to the upstream: httputil.ReverseProxy
// with a transport sized for one busy upstream.
type guardProxy struct {
	rp      *httputil.ReverseProxy
	trusted clientip.Trusted
	maxBody int64
}

// upstreamTransport is the transport to the upstream: no proxy from the
// environment, connections kept alive and reused (up to 1024 idle ones).
// The bare proxy that bench/guard/wrk.sh compares with uses the same.
func upstreamTransport(headerTimeout time.Duration) *http.Transport {
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Transport{
		DialContext: d.DialContext, ForceAttemptHTTP2: true,
		MaxIdleConns: 1024, MaxIdleConnsPerHost: 1024, IdleConnTimeout: 90 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second, ExpectContinueTimeout: time.Second,
		ResponseHeaderTimeout: headerTimeout,
	}
}

func newGuardProxy(up *url.URL, trusted clientip.Trusted, maxBody int64, headerTimeout time.Duration, log *slog.Logger) *guardProxy {
	p := &guardProxy{trusted: trusted, maxBody: maxBody}
	p.rp = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(up)
			// The site sees the Host its clients asked for, as behind
			// Caddy; X-Forwarded-Host says it too.
			pr.Out.Host = pr.In.Host
			p.setForwarded(pr)
		},
		Transport:  upstreamTransport(headerTimeout),
		BufferPool: copyBuffers{},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			var tooBig *http.MaxBytesError
			switch {
			case errors.As(err, &tooBig):
				http.Error(w, "robotstxt guard: the request body is larger than the guard accepts", http.StatusRequestEntityTooLarge)
			case errors.Is(err, context.Canceled):
				// The client went away: nobody reads an answer.
				w.WriteHeader(499)
			default:
				log.Warn("upstream failed", "method", r.Method, "path", r.URL.Path, "err", err)
				http.Error(w, "robotstxt guard: the site did not answer", http.StatusBadGateway)
			}
		},
	}
	return p
}

// setForwarded sets the X-Forwarded- headers of the request to the
// upstream: For is the chain a trusted peer sent followed by the peer
// itself (an untrusted peer's own chain is dropped); Host and Proto are
// the client's, or what a trusted peer says.
func (p *guardProxy) setForwarded(pr *httputil.ProxyRequest) {
	peer, ok := pr.In.Context().Value(peerKey{}).(netip.Addr)
	if !ok {
		peer = clientip.Peer(pr.In.RemoteAddr) // RemoteAddr is the peer's: no proxy forwarded it
	}
	trusted := peer.IsValid() && p.trusted.Contains(peer)
	xff := peer.String()
	if trusted {
		if prior := strings.Join(pr.In.Header.Values("X-Forwarded-For"), ", "); prior != "" {
			xff = prior + ", " + xff
		}
	}
	pr.Out.Header.Set("X-Forwarded-For", xff)
	host, proto := pr.In.Host, "http"
	if pr.In.TLS != nil {
		proto = "https"
	}
	if trusted {
		if h := pr.In.Header.Get("X-Forwarded-Host"); h != "" {
			host = h
		}
		if v := pr.In.Header.Get("X-Forwarded-Proto"); v == "http" || v == "https" {
			proto = v
		}
	}
	pr.Out.Header.Set("X-Forwarded-Host", host)
	pr.Out.Header.Set("X-Forwarded-Proto", proto)
}

// handler is the proxy with the guard's middleware in front: each
// request's body is bounded, its client address resolved (when a trusted
// proxy forwarded it, RemoteAddr becomes the client's and the peer is kept
// in the context for X-Forwarded-For), then the middleware decides and
// the proxy forwards what it passes.
func (p *guardProxy) handler(mw func(http.Handler) http.Handler) http.Handler {
	guarded := mw(p.rp)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p.maxBody > 0 && r.Body != nil && r.Body != http.NoBody {
			if r.ContentLength > p.maxBody {
				http.Error(w, "robotstxt guard: the request body is larger than the guard accepts", http.StatusRequestEntityTooLarge)
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, p.maxBody)
		}
		peer := clientip.Peer(r.RemoteAddr)
		if client := clientip.Of(r, p.trusted); client != peer {
			// The middleware reads the client in RemoteAddr; the peer
			// stays in the context for X-Forwarded-For.
			r = r.WithContext(context.WithValue(r.Context(), peerKey{}, peer))
			r.RemoteAddr = netip.AddrPortFrom(client, 0).String()
		}
		guarded.ServeHTTP(w, r)
	})
}

// copyBuffers are the buffers the proxy copies response bodies through,
// reused: httputil.ReverseProxy otherwise makes (and clears) 32 KiB for
// each response, which measured 5% of a proxied request's CPU.
type copyBuffers struct{}

var copyBufferPool = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

func (copyBuffers) Get() []byte  { return *copyBufferPool.Get().(*[]byte) }
func (copyBuffers) Put(b []byte) { copyBufferPool.Put(&b) }
