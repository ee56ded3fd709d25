package server

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
)

// A page on another site can drive a server on loopback through a
// visitor's browser: with DNS rebinding (its own name made to resolve to
// 127.0.0.1, so that the browser sends its requests, and reads the
// answers, as same-origin), or with requests the browser sends across
// sites without asking (a form's POST). The server refuses both:
//
//   - a Host header that is not an address of the server: 421. Accepted
//     are the address the connection came to (the listening address, or
//     for a listener on every interface the interface's), localhost,
//     127.0.0.1 and [::1] with the listening port when the server listens
//     on loopback or on every interface, and Options.AllowedHosts
//     ("*": any). A request that came over no connection (a handler
//     called in process) is not checked.
//   - a POST whose body is not declared as JSON (Content-Type
//     application/json, or for JSON Lines application/x-ndjson or
//     application/jsonl, with parameters or not): 415. A browser sends
//     such a POST across sites only after asking the server (CORS
//     preflight), which it does not answer.
//   - a request that may change state (every POST; GET /v1/fetch, a live
//     fetch that writes the cache and the history) that a browser marks
//     as coming from another origin: 403. Sec-Fetch-Site says so, or
//     for a POST without it an Origin header that is not the Host
//     (net/http.CrossOriginProtection).

// hostPolicy is the Host values a server accepts beyond its own address.
type hostPolicy struct {
	any   bool
	names map[string]bool // a host name or address, any port
	exact map[string]bool // host:port
	// unspecified holds the ports of the listeners given to Serve that
	// listen on every interface: loopback names are accepted with them.
	mu          sync.Mutex
	unspecified map[int]bool
}

// newHostPolicy reads Options.AllowedHosts: each a host name or IP
// address (any port), or host:port, or "*".
func newHostPolicy(allowed []string) (*hostPolicy, error) {
	p := &hostPolicy{names: map[string]bool{}, exact: map[string]bool{}, unspecified: map[int]bool{}}
	for _, h := range allowed {
		h = strings.TrimSpace(h)
		switch {
		case h == "*":
			p.any = true
			continue
		case h == "" || strings.ContainsAny(h, "/?#@ \t") || strings.Contains(h, "://"):
			return nil, fmt.Errorf("server: allowed host %q: want a host name or address, with a port or not (robots.example, robots.example:8443, [::1]:8080), or *", h)
		}
		name, port, ok := splitHost(h, -1)
		if !ok {
			return nil, fmt.Errorf("server: allowed host %q: the port is not a number from 1 to 65535", h)
		}
		if port < 0 {
			p.names[name] = true
		} else {
			p.exact[net.JoinHostPort(name, strconv.Itoa(port))] = true
		}
	}
	return p, nil
}

// splitHost splits a Host header into a lower-case name (an IPv6 address
// without brackets, no trailing dot) and a port, defPort when it has none;
// ok is false for a port that is not one.
func splitHost(h string, defPort int) (name string, port int, ok bool) {
	name, port = h, defPort
	if i := strings.LastIndexByte(h, ':'); i >= 0 && (!strings.Contains(h[:i], ":") || strings.HasPrefix(h, "[") && h[i-1] == ']') {
		n, err := strconv.Atoi(h[i+1:])
		if err != nil || n < 1 || n > 65535 {
			return "", 0, false
		}
		name, port = h[:i], n
	}
	name = strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(name, "["), "]"), ".")
	return strings.ToLower(name), port, true
}

// allows reports whether a request with Host header host that came to the
// local address local (over TLS or not) may be answered.
func (p *hostPolicy) allows(host string, local net.Addr, tls bool) bool {
	if p.any || host == "" {
		// No Host (HTTP/1.0) is no browser's request.
		return true
	}
	tcp, ok := local.(*net.TCPAddr)
	if !ok {
		// Not over TCP (a Unix socket): no browser reaches it.
		return true
	}
	def := 80
	if tls {
		def = 443
	}
	name, port, ok := splitHost(host, def)
	if !ok {
		return false
	}
	if p.names[name] || len(p.exact) > 0 && p.exact[net.JoinHostPort(name, strconv.Itoa(port))] {
		return true
	}
	if port != tcp.Port {
		return false
	}
	localIP, _ := netip.AddrFromSlice(tcp.IP)
	localIP = localIP.Unmap()
	ip, err := netip.ParseAddr(name)
	switch {
	case err == nil && ip.Unmap() == localIP:
		return true
	case err == nil && !ip.IsLoopback(), err != nil && name != "localhost":
		return false
	}
	// A loopback name: accepted on a loopback connection, or on a
	// listener on every interface.
	return localIP.IsLoopback() || p.listensEverywhere(tcp.Port)
}

func (p *hostPolicy) listensEverywhere(port int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.unspecified[port]
}

// listening notes a listener given to Serve.
func (p *hostPolicy) listening(a net.Addr) {
	if tcp, ok := a.(*net.TCPAddr); ok && tcp.IP.IsUnspecified() {
		p.mu.Lock()
		p.unspecified[tcp.Port] = true
		p.mu.Unlock()
	}
}

// checkHost answers 421 and reports false when r's Host is not one the
// server accepts.
func (s *Server) checkHost(w http.ResponseWriter, r *http.Request) bool {
	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if local == nil || s.hosts.allows(r.Host, local, r.TLS != nil) {
		return true
	}
	writeError(w, &Error{Status: http.StatusMisdirectedRequest, Message: fmt.Sprintf(
		"Host %q is not an address of this server (a page on another site resolving its name to this server?); start the server with --allowed-hosts %s to accept it",
		clip(r.Host), clip(r.Host))})
	return false
}

// jsonContent reports whether a Content-Type header declares JSON:
// application/json, or JSON Lines (application/x-ndjson,
// application/jsonl: what POST /v1/bulk reads), in any case, with
// parameters or not. None of them is a type a browser sends across sites
// without a preflight.
func jsonContent(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	mt = strings.TrimSpace(mt)
	return strings.EqualFold(mt, "application/json") || strings.EqualFold(mt, "application/x-ndjson") || strings.EqualFold(mt, "application/jsonl")
}

// crossOrigin is net/http's check of a POST that a browser sends from
// another origin.
var crossOrigin = http.NewCrossOriginProtection()

// sameOrigin answers 403 and reports false when r may change state and a
// browser says it comes from another origin.
func (s *Server) sameOrigin(w http.ResponseWriter, r *http.Request) bool {
	if e := fromOtherOrigin(r); e != nil {
		writeError(w, e)
		return false
	}
	return true
}

// fromOtherOrigin is the refusal (403) of a request that may change state
// and that a browser says comes from another origin; nil when it may go
// on.
func fromOtherOrigin(r *http.Request) *Error {
	var err error
	switch r.Method {
	case http.MethodPost:
		err = crossOrigin.Check(r)
	case http.MethodGet:
		if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
			err = fmt.Errorf("Sec-Fetch-Site is %s", site)
		}
	}
	if err == nil {
		return nil
	}
	return &Error{Status: http.StatusForbidden, Message: "this request comes from a page of another origin (" + err.Error() + "); the API answers its own page and clients that are not browsers"}
}

// postGate refuses a POST whose body is not declared as JSON (415) or that
// a browser sends from another origin (403), and holds the memory its body
// needs (bodyWeight) while it is answered, weighed as it arrives
// (reserveBody).
func (s *Server) postGate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ct := r.Header.Get("Content-Type"); !jsonContent(ct) {
			msg := "the body must be JSON (Content-Type: application/json)"
			if ct != "" {
				msg += ", not " + clip(ct)
			}
			writeError(w, &Error{Status: http.StatusUnsupportedMediaType, Message: msg})
			return
		}
		if !s.sameOrigin(w, r) {
			return
		}
		release, e := s.reserveBody(r)
		if e != nil {
			writeError(w, e)
			return
		}
		defer release()
		next.ServeHTTP(w, r)
	})
}
