package main

import (
	"context"
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	"github.com/seed53c283f5/robotstxt/clientip"
)

// decidePath is the decision endpoint. Envoy's ext_authz (HTTP) asks
// decidePath + the original path (its path_prefix); the others ask
// decidePath itself and name the original in headers.
const decidePath = "/v1/decide"

// maxForwardedURI bounds the original request-target a decision reads.
const maxForwardedURI = 8 << 10

// originalRequest rebuilds, from a decision request, the request a front
// proxy (nginx auth_request, Caddy forward_auth, Traefik ForwardAuth,
// Envoy ext_authz) asks about:
//
//   - its method: X-Forwarded-Method (Caddy, Traefik), X-Original-Method
//     (set in the nginx snippet), else the decision request's own (nginx's
//     subrequest and Envoy keep the original's);
//   - its request-target: X-Original-URI (nginx), X-Forwarded-Uri (Caddy,
//     Traefik), else the path after /v1/decide (Envoy's path_prefix),
//     else "/";
//   - its host: X-Forwarded-Host, else the Host the decision request
//     carries (nginx and Envoy pass the original's);
//   - its client: the peer, or what a trusted peer forwards (clientip.Of);
//   - its other header fields as they come (User-Agent, Web Bot Auth's
//     Signature, Signature-Input and Signature-Agent).
//
// The request has no body. An error says which header was unusable.
func originalRequest(r *http.Request, trusted clientip.Trusted) (*http.Request, netip.Addr, string) {
	method := r.Method
	for _, h := range []string{"X-Forwarded-Method", "X-Original-Method"} {
		if m := strings.TrimSpace(r.Header.Get(h)); m != "" {
			if !validMethod(m) {
				return nil, netip.Addr{}, h + " is not an HTTP method"
			}
			method = m
			break
		}
	}
	target := ""
	for _, h := range []string{"X-Original-URI", "X-Forwarded-Uri"} {
		if v := r.Header.Get(h); v != "" {
			target = v
			break
		}
	}
	if target == "" {
		if rest, ok := strings.CutPrefix(r.URL.EscapedPath(), decidePath); ok && strings.HasPrefix(rest, "/") {
			target = rest
			if r.URL.RawQuery != "" {
				target += "?" + r.URL.RawQuery
			}
		} else {
			target = "/"
		}
	}
	if len(target) > maxForwardedURI {
		return nil, netip.Addr{}, "the original request-target is longer than 8 KiB"
	}
	u, err := url.ParseRequestURI(target)
	if err != nil || !strings.HasPrefix(target, "/") {
		return nil, netip.Addr{}, "the original request-target is not a path (want /path?query)"
	}
	host := r.Host
	if fh := r.Header.Get("X-Forwarded-Host"); fh != "" {
		host, _, _ = strings.Cut(fh, ",")
		host = strings.TrimSpace(host)
	}
	client := clientip.Of(r, trusted)
	out := r.Clone(context.WithValue(r.Context(), peerKey{}, clientip.Peer(r.RemoteAddr)))
	out.Method = method
	out.URL = u
	out.RequestURI = target
	out.Host = host
	out.Body = http.NoBody
	out.ContentLength = 0
	out.RemoteAddr = netip.AddrPortFrom(client, 0).String()
	if p := r.Header.Get("X-Forwarded-Proto"); p == "https" || p == "http" {
		out.URL.Scheme = p
	}
	return out, client, ""
}

// validMethod reports whether m is an HTTP method token.
func validMethod(m string) bool {
	if len(m) > 32 {
		return false
	}
	for _, c := range []byte(m) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`()<>@,;:\"/[]?={}`, c) >= 0 {
			return false
		}
	}
	return true
}

// peerKey is the context key of the connection's peer address, kept when
// RemoteAddr is set to the client a trusted proxy forwards.
type peerKey struct{}

// decideHandler answers GET /v1/decide (and /v1/decide/...): the original
// request, rebuilt from the forwarded headers, goes through the guard's
// middleware as the proxy's requests do. A request the guard lets through
// gets 200 and an empty body; one it refuses gets the guard's own answer
// (403, 402 with its price, 429 with Retry-After, or a tarpit's slow
// answer), which Caddy, Traefik and Envoy hand to the client as it is and
// nginx maps (docs/guard.md). Any method is accepted, since nginx's and
// Envoy's checks keep the original's.
func decideHandler(mw func(http.Handler) http.Handler, trusted clientip.Trusted) http.Handler {
	pass := mw(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		orig, _, problem := originalRequest(r, trusted)
		if problem != "" {
			http.Error(w, "robotstxt guard: "+problem, http.StatusBadRequest)
			return
		}
		pass.ServeHTTP(w, orig)
	})
}

// controlHandler is the guard's own listener (--decide-addr, or --addr
// with --decide-only): the decision endpoint, /healthz, and /metrics when
// metrics is not nil. The decision endpoint takes any path under
// /v1/decide as it comes, uncleaned (Envoy appends the original path).
func controlHandler(decide, metrics http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		switch {
		case p == decidePath || strings.HasPrefix(p, decidePath+"/"):
			decide.ServeHTTP(w, r)
		case p == "/healthz" && (r.Method == http.MethodGet || r.Method == http.MethodHead):
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.Write([]byte("ok\n"))
		case p == "/metrics" && metrics != nil && r.Method == http.MethodGet:
			metrics.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	})
}
