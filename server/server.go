package server

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/storeopen"
	"github.com/seed53c283f5/robotstxt/tester"
	"github.com/seed53c283f5/robotstxt/watch"
	"golang.org/x/net/netutil"
	"golang.org/x/time/rate"
)

// The defaults of Options.
const (
	DefaultRequestTimeout    = 30 * time.Second
	DefaultReadHeaderTimeout = 5 * time.Second
	DefaultReadTimeout       = 30 * time.Second
	DefaultWriteTimeout      = 60 * time.Second
	DefaultIdleTimeout       = 120 * time.Second
	DefaultShutdownTimeout   = 30 * time.Second
	DefaultRate              = 50  // requests a second per client
	DefaultBurst             = 100 // requests at once per client
	DefaultMaxClients        = 10000
	DefaultMaxConns          = 2048 // connections open at once
	DefaultMaxConnsPerClient = 64   // of them, from one client
	// DefaultStallTimeout is how long a streamed answer (check, bulk) may
	// wait for its client to take the next piece.
	DefaultStallTimeout = 10 * time.Second
)

// Options configure a Server. The zero value (or nil) works: a memory
// store, no token, private addresses refused, the defaults above.
type Options struct {
	// Store keeps the cache's entries and the history; nil means a memory
	// store. The server does not close it.
	Store store.Store
	// Logger receives one line per request and the server's warnings; nil
	// discards them.
	Logger *slog.Logger
	// Engine answers check, lint, compare, diff, ai and policy; nil
	// means the default: the code of the CLI's commands (package tester),
	// whose answers are the objects of their --json output. Tests give
	// their own.
	Engine Engine
	// ParsedBytes bounds the inline robots.txt files kept parsed between
	// requests, as robotstxt.Robots.Footprint weighs them: 0 means
	// DefaultParsedBytes, a negative value keeps none.
	ParsedBytes int64
	// Token, when not empty, is the bearer token every /v1/ route but the
	// OpenAPI document, and /metrics, require (Authorization: Bearer
	// TOKEN, the scheme's name in any case); /readyz gives its details only
	// with it. Wrong tokens are limited per client (AuthFailureBurst).
	Token string
	// AllowPrivate lets live fetches reach loopback, private, link-local
	// and the other addresses AddressClass names.
	AllowPrivate bool
	// AllowedHosts are the Host header values accepted beside the
	// server's own addresses (see checkHost): host names or IP addresses
	// (any port), or host:port; "*" accepts any Host. Give the names a
	// reverse proxy forwards, or the server is reached by.
	AllowedHosts []string
	// Resolver resolves the host names of live fetches; nil means
	// net.DefaultResolver.
	Resolver interface {
		LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
	}
	// HistoryTTL is how long the history keeps a version after it was
	// last seen (the time to live of its keys in the store); 0 means
	// DefaultHistoryTTL, a negative value records no history.
	// HistoryOrigins bounds the origins whose history the server records
	// (0 means DefaultHistoryOrigins): past it, the history of the origin
	// fetched least recently is deleted. Only the site's answers are
	// recorded: not a fetch the guard refused, nor one that got no
	// answer.
	HistoryTTL     time.Duration
	HistoryOrigins int
	// UserAgent is the User-Agent of live fetches ("" means
	// fetch.DefaultUserAgent); FetchTimeout bounds one (0 means
	// fetch.DefaultTimeout).
	UserAgent    string
	FetchTimeout time.Duration
	// Rate and Burst limit each client (by IP address) on /v1/: Rate
	// requests a second, Burst at once. 0 means the defaults; a negative
	// Rate turns the limit off. MaxClients bounds the clients remembered.
	Rate       rate.Limit
	Burst      int
	MaxClients int
	// RequestTimeout is the deadline of every request (default 30 s).
	RequestTimeout time.Duration
	// The work a request may ask for (see limits.go): MaxQuestions
	// questions (a URL asked about for one crawler in one reading),
	// MaxAnswerBytes of answer, and of the memory all requests in flight
	// hold together, MaxInFlightBytes (at least MinInFlightBytes). 0
	// means DefaultMaxQuestions, DefaultMaxAnswerBytes and
	// DefaultMaxInFlightBytes.
	MaxQuestions     int
	MaxAnswerBytes   int64
	MaxInFlightBytes int64
	// The timeouts of the HTTP server Serve runs (see net/http.Server),
	// and how long Serve waits for requests in flight when its context
	// ends.
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout, ShutdownTimeout time.Duration
	// MaxConns bounds the connections Serve holds open at once: past it,
	// it accepts no more until one closes (they wait in the listener's
	// backlog). 0 means DefaultMaxConns, a negative value no bound.
	// MaxConnsPerClient bounds the connections of one client (clientOf)
	// among them: past it, a new connection of that client is closed at
	// once, so that one client's slow connections cannot hold every
	// place. 0 means DefaultMaxConnsPerClient, a negative value no bound.
	MaxConns, MaxConnsPerClient int
	// StallTimeout bounds how long a streamed answer waits for its client
	// to read the next piece (0 means DefaultStallTimeout): a client that
	// does not read is cut then, not at WriteTimeout.
	StallTimeout time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Watch configures the watches (/v1/watches; see watch.go).
	Watch WatchOptions
	// Outbound bounds the requests the server makes to sites, per
	// client, per registrable domain and per address (outbound.go).
	Outbound OutboundOptions
	// Identity, when not nil, makes POST /v1/audit check the claimed
	// identities (identity.go); nil leaves them unverified.
	Identity *Identity
}

// Server is the robotstxt service: the JSON API under /v1/, health and
// metrics, and the tester page at /. It is an http.Handler; Serve runs it
// on a listener with timeouts and a graceful shutdown. It starts no
// goroutine until Serve.
type Server struct {
	opts      Options
	log       *slog.Logger
	store     store.Store
	caches    map[robotstxt.Dialect]*cache.Cache
	guard     *Guard
	transport *http.Transport
	// outbound is the transport every fetch goes through: transport,
	// within the bounds per client, domain and address.
	outbound *outbound
	history  *history
	parsed   *sourceLRU
	strings  *stringCache // long strings of check bodies, unescaped
	hosts    *hostPolicy
	limits   *limiter
	admit    *admission
	// authFailures counts each client's wrong tokens.
	authFailures *limiter
	metrics      *metrics
	mux          *http.ServeMux
	handler      http.Handler
	routes       []route
	// openConns counts the connections Serve holds open.
	openConns atomic.Int64
	// watches keeps and checks the watches (watch.go).
	watches *watch.Engine
	// identity checks the audit's claims (identity.go); nil: none.
	identity *identity
}

// route is one pattern of the mux; api routes are under auth and the
// rate limit.
type route struct {
	pattern string
	api     bool
	handler http.HandlerFunc
}

//go:embed openapi.json
var openAPI []byte

//go:embed web
var webFiles embed.FS

// New returns a server; nil options mean the defaults.
func New(opts *Options) (*Server, error) {
	s := &Server{}
	if opts != nil {
		s.opts = *opts
	}
	o := &s.opts
	if o.Now == nil {
		o.Now = time.Now
	}
	s.log = o.Logger
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.store = o.Store
	if s.store == nil {
		s.store = store.NewMemory(nil)
	}
	if err := fetch.CheckUserAgent(o.UserAgent); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	hosts, err := newHostPolicy(o.AllowedHosts)
	if err != nil {
		return nil, err
	}
	s.hosts = hosts
	if o.Rate == 0 {
		o.Rate = DefaultRate
	}
	if o.Burst <= 0 {
		o.Burst = DefaultBurst
	}
	if o.MaxConns == 0 {
		o.MaxConns = DefaultMaxConns
	}
	if o.MaxConnsPerClient == 0 {
		o.MaxConnsPerClient = DefaultMaxConnsPerClient
	}
	if o.MaxClients <= 0 {
		o.MaxClients = DefaultMaxClients
	}
	if o.MaxQuestions <= 0 {
		o.MaxQuestions = DefaultMaxQuestions
	}
	if o.MaxAnswerBytes <= 0 {
		o.MaxAnswerBytes = DefaultMaxAnswerBytes
	}
	if o.MaxInFlightBytes <= 0 {
		o.MaxInFlightBytes = DefaultMaxInFlightBytes
	}
	o.MaxInFlightBytes = max(o.MaxInFlightBytes, MinInFlightBytes)
	s.admit = newAdmission(o.MaxInFlightBytes)
	setDefault(&o.RequestTimeout, DefaultRequestTimeout)
	setDefault(&o.ReadHeaderTimeout, DefaultReadHeaderTimeout)
	setDefault(&o.ReadTimeout, DefaultReadTimeout)
	setDefault(&o.WriteTimeout, DefaultWriteTimeout)
	setDefault(&o.IdleTimeout, DefaultIdleTimeout)
	setDefault(&o.ShutdownTimeout, DefaultShutdownTimeout)
	setDefault(&o.StallTimeout, DefaultStallTimeout)
	if o.WriteTimeout <= o.RequestTimeout {
		// The answer of a request that used its whole deadline must
		// still be written.
		o.WriteTimeout = o.RequestTimeout + 5*time.Second
	}

	s.guard = &Guard{AllowPrivate: o.AllowPrivate, Resolver: o.Resolver}
	s.transport = &http.Transport{
		// No proxy: the guard must see the address connected to.
		Proxy:                  nil,
		DialContext:            s.guard.DialContext,
		ForceAttemptHTTP2:      true,
		DisableCompression:     true, // the fetcher decodes under its size limit
		MaxResponseHeaderBytes: 64 << 10,
		MaxIdleConns:           100,
		IdleConnTimeout:        90 * time.Second,
		TLSHandshakeTimeout:    10 * time.Second,
		HTTP2:                  &http.HTTP2Config{MaxReceiveBufferPerStream: 64 << 10},
	}
	s.outbound = newOutbound(s.transport, o.Outbound)
	s.guard.outbound = s.outbound
	s.caches = make(map[robotstxt.Dialect]*cache.Cache)
	for _, d := range robotstxt.Dialects() {
		f := &fetch.Fetcher{
			Transport: s.outbound, DialContext: s.guard.DialContext, CheckRedirect: s.guard.checkRedirect, Dialect: d,
			UserAgent: o.UserAgent, Timeout: o.FetchTimeout, Now: o.Now,
		}
		s.caches[d] = cache.New(&cache.Options{Store: s.store, Fetcher: f, Now: o.Now, KeyPrefix: tester.CacheKeyPrefix(d)})
	}
	s.history = newHistory(s.store, o.Now, o.HistoryTTL, o.HistoryOrigins)
	if o.Identity != nil {
		id, err := s.newIdentity(o.Identity)
		if err != nil {
			return nil, err
		}
		s.identity = id
	}
	if o.ParsedBytes == 0 {
		o.ParsedBytes = DefaultParsedBytes
	}
	s.parsed = newSourceLRU(o.ParsedBytes)
	s.strings = newStringCache()
	if o.Engine == nil {
		o.Engine = &testerEngine{s: s}
	}
	s.limits = newLimiter(o.Rate, o.Burst, o.MaxClients)
	s.authFailures = newAuthLimiter(o.MaxClients)
	s.metrics = newMetrics(s)
	if err := s.initWatches(); err != nil {
		return nil, err
	}
	s.routes = s.routeTable()
	s.mux = http.NewServeMux()
	for _, r := range s.routes {
		h := http.Handler(r.handler)
		if strings.HasPrefix(r.pattern, "POST ") {
			h = s.postGate(h)
		}
		if r.api {
			h = s.apiGate(h)
		}
		s.mux.Handle(r.pattern, h)
	}
	s.handler = s.observe(jsonMisses(s.mux))
	return s, nil
}

func setDefault(d *time.Duration, def time.Duration) {
	if *d <= 0 {
		*d = def
	}
}

func (s *Server) routeTable() []route {
	return []route{
		{"GET /{$}", false, s.handlePage},
		{"GET /healthz", false, s.handleHealthz},
		{"GET /readyz", false, s.handleReadyz},
		{"GET /metrics", false, s.tokenGate(s.metrics.handler()).ServeHTTP},
		{"GET /app.js", false, servePageFile("app.js", pageFiles["app.js"])},
		{"GET /style.css", false, servePageFile("style.css", pageFiles["style.css"])},
		{"GET /js/{name}", false, servePageModule},
		{"GET /v1/openapi.json", false, s.handleOpenAPI},
		{"GET /v1/crawlers", true, s.handleCrawlers},
		{"GET /v1/fetch", true, s.handleFetch},
		{"GET /v1/history", true, s.handleHistory},
		{"GET /v1/history/version", true, s.handleHistoryVersion},
		{"POST /v1/check", true, s.handleCheck},
		{"POST /v1/lint", true, s.handleLint},
		{"POST /v1/compare", true, s.handleCompare},
		{"POST /v1/diff", true, s.handleDiff},
		{"POST /v1/ai", true, s.handleAI},
		{"POST /v1/policy", true, s.handlePolicy},
		{"POST /v1/bulk", true, s.handleBulk},
		{"POST /v1/audit", true, s.handleAudit},
		{"POST /v1/watches", true, s.handleWatchCreate},
		{"GET /v1/watches", true, s.handleWatchList},
		{"GET /v1/watches/{id}", true, s.handleWatchGet},
		{"DELETE /v1/watches/{id}", true, s.handleWatchDelete},
	}
}

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

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
		clients: map[netip.Addr]int{}, refused: s.metrics.connsRefused}
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
// holds perClient already (when perClient > 0).
type countingListener struct {
	net.Listener
	open      *atomic.Int64
	perClient int
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
		var client netip.Addr
		if ap, err := netip.ParseAddrPort(c.RemoteAddr().String()); err == nil {
			client = clientKey(ap.Addr().Unmap())
		}
		l.mu.Lock()
		if l.perClient > 0 && l.clients[client] >= l.perClient {
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
		dc.client = clientOf(r)
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
					slog.String("client", clientIP(r).String()), slog.Any("aborted", v))
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
			slog.String("client", clientIP(r).String()))
	})
}

// jsonMisses answers a request under /v1/ that no route takes (404, or
// 405 with its Allow header) in JSON, as every other answer of the API;
// mux answers the rest.
func jsonMisses(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/v1/") {
			mux.ServeHTTP(w, r)
			return
		}
		h, pattern := mux.Handler(r)
		if pattern != "" {
			mux.ServeHTTP(w, r)
			return
		}
		// No pattern: a miss, or a redirect to the cleaned path. The
		// mux's own answer says which.
		rec := &missRecorder{header: http.Header{}}
		h.ServeHTTP(rec, r)
		switch rec.status {
		case http.StatusNotFound:
			writeError(w, &Error{Status: http.StatusNotFound, Message: fmt.Sprintf("no route %s %s; the API's routes are in GET /v1/openapi.json", r.Method, r.URL.Path)})
		case http.StatusMethodNotAllowed:
			allow := rec.header.Get("Allow")
			w.Header().Set("Allow", allow)
			writeError(w, &Error{Status: http.StatusMethodNotAllowed, Message: fmt.Sprintf("%s takes %s, not %s", r.URL.Path, allow, r.Method)})
		default:
			for k, v := range rec.header {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.status)
			w.Write(rec.body.Bytes())
		}
	})
}

// missRecorder keeps the mux's answer to a request no route takes.
type missRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (m *missRecorder) Header() http.Header { return m.header }

func (m *missRecorder) WriteHeader(code int) {
	if m.status == 0 {
		m.status = code
	}
}

func (m *missRecorder) Write(b []byte) (int, error) {
	m.WriteHeader(http.StatusOK)
	if m.body.Len() < 4<<10 {
		m.body.Write(b)
	}
	return len(b), nil
}

// routeOf is the route of a request in logs and metrics: its pattern.
func routeOf(r *http.Request) string {
	if r.Pattern == "" {
		return "unmatched"
	}
	return r.Pattern
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

// clientIP is the address of the connection's peer: headers such as
// X-Forwarded-For are not trusted.
func clientIP(r *http.Request) netip.Addr {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}
	}
	return ap.Addr().Unmap()
}

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(&Error{Message: "the answer cannot be encoded: " + err.Error()})
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

func writeError(w http.ResponseWriter, e *Error) {
	status := e.Status
	if status == 0 {
		status = http.StatusInternalServerError
	}
	if e.Retry > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.Retry))
	}
	writeJSON(w, status, &Error{Message: plainText(e.Message), Field: e.Field})
}

// cutPackagePrefix removes a leading "server: ", "tester: ", "fetch: ",
// "cache: " or "robotstxt: " from msg.
func cutPackagePrefix(msg string) (string, bool) {
	for _, p := range []string{"server: ", "tester: ", "fetch: ", "cache: ", "robotstxt: "} {
		if rest, ok := strings.CutPrefix(msg, p); ok {
			return rest, true
		}
	}
	return msg, false
}

// answer fetches the robots.txt of o with d's fetch policy through the
// cache, records a new version in the history, and reports it.
func (s *Server) answer(ctx context.Context, o fetch.Origin, d robotstxt.Dialect) (*cache.Answer, tester.FetchInfo, error) {
	return s.fetchAnswer(ctx, o, d, false)
}

// fetchAnswer is answer; with refresh the file is fetched now, whatever
// the cache holds (cache.Cache.RefreshOrigin), as GET /v1/fetch?refresh=true
// asks.
func (s *Server) fetchAnswer(ctx context.Context, o fetch.Origin, d robotstxt.Dialect, refresh bool) (*cache.Answer, tester.FetchInfo, error) {
	if d == robotstxt.DefaultDialect {
		d = robotstxt.Google
	}
	c := s.caches[d]
	if c == nil {
		return nil, tester.FetchInfo{}, fmt.Errorf("server: no cache for dialect %v", d)
	}
	get := c.GetOrigin
	if refresh {
		get = c.RefreshOrigin
	}
	a, err := get(ctx, o)
	if err != nil {
		return nil, tester.FetchInfo{}, err
	}
	body, info := tester.ReportAnswer(a, publicStoreName(storeopen.Health(s.store)))
	if recordable(a) {
		if err := s.history.record(ctx, a, body); err != nil {
			s.metrics.historyErrors.Inc()
			s.log.Warn("history not recorded", "origin", o.String(), "err", err)
		}
	}
	return a, *info, nil
}

func (s *Server) handlePage(w http.ResponseWriter, r *http.Request) {
	b, err := fs.ReadFile(webFiles, "web/index.html")
	if err != nil {
		writeError(w, &Error{Message: "the page is missing from the binary"})
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b)
}

func (s *Server) handleHealthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyKey is the key /readyz reads: a miss is an answer.
const readyKey = "readyz probe"

// handleReadyz says whether the store answers. With a token set, a
// request without it learns that alone (ready or not); the store's name,
// its error and whether it is degraded need the token.
func (s *Server) handleReadyz(w http.ResponseWriter, r *http.Request) {
	details := s.opts.Token == ""
	if !details && r.Header.Get("Authorization") != "" {
		if !s.authorize(w, r) {
			return
		}
		details = true
	}
	h := storeopen.Health(s.store)
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if _, _, err := s.store.Get(ctx, readyKey); err != nil {
		s.metrics.storeProbeErrors.Inc()
		out := map[string]any{"status": "unavailable"}
		if details {
			out["store"], out["error"] = h.Name, "the store does not answer: "+err.Error()
		}
		writeJSON(w, http.StatusServiceUnavailable, out)
		return
	}
	out := map[string]any{"status": "ready"}
	if details {
		out["store"] = h.Name
		if h.Degraded {
			// Answers still come, from memory: ready, and saying so.
			out["degraded"] = h.Message
		}
		if n := storeopen.Notice(s.store); n != "" {
			// The file was set aside at start: what it held (the
			// watches too) is not in this run.
			out["damaged"] = n + "; the watches, history and cache it held are in the file moved aside"
		}
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Write(openAPI)
}

func (s *Server) handleFetch(w http.ResponseWriter, r *http.Request) {
	if !s.sameOrigin(w, r) {
		return
	}
	q := r.URL.Query()
	if e := onlyParams(q, "url", "dialect", "refresh"); e != nil {
		writeError(w, e)
		return
	}
	refresh := false
	if v := q.Get("refresh"); v != "" {
		var err error
		if refresh, err = strconv.ParseBool(v); err != nil {
			writeError(w, badField("refresh", "want true or false, not %q", clip(v)))
			return
		}
	}
	raw := q.Get("url")
	if raw == "" {
		writeError(w, badField("url", "give the URL of a site (?url=https://example.com/)"))
		return
	}
	o, err := parseOrigin(raw)
	if err != nil {
		writeError(w, badField("url", "%v", err))
		return
	}
	d, e := checkDialect(q.Get("dialect"))
	if e != nil {
		writeError(w, e)
		return
	}
	release, e := s.acquire(r.Context(), s.admit.work, liveWeight)
	if e != nil {
		writeError(w, e)
		return
	}
	defer release()
	_, info, err := s.fetchAnswer(r.Context(), o, d, refresh)
	if err != nil {
		writeError(w, s.failure(r.Context(), err))
		return
	}
	writeJSON(w, http.StatusOK, info)
}

// onlyParams refuses query parameters other than names, as the JSON
// bodies refuse unknown fields.
func onlyParams(q map[string][]string, names ...string) *Error {
	for k, v := range q {
		known := false
		for _, n := range names {
			known = known || k == n
		}
		if !known {
			return badField(k, "unknown parameter (want %s)", strings.Join(names, ", "))
		}
		if len(v) > 1 {
			return badField(k, "given %d times", len(v))
		}
	}
	return nil
}

// failure turns an error that is not the client's into its answer.
func (s *Server) failure(ctx context.Context, err error) *Error {
	var e *Error
	switch {
	case errors.As(err, &e):
		return e
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		return &Error{Status: http.StatusGatewayTimeout, Message: fmt.Sprintf("the request took longer than its deadline (%v)", s.opts.RequestTimeout)}
	}
	s.log.Error("request failed", "err", err)
	return &Error{Status: http.StatusInternalServerError, Message: err.Error()}
}

func (s *Server) handleHistory(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if e := onlyParams(q, "origin"); e != nil {
		writeError(w, e)
		return
	}
	o, e := originParam(q.Get("origin"))
	if e != nil {
		writeError(w, e)
		return
	}
	versions, err := s.history.list(r.Context(), o)
	if err != nil {
		s.metrics.historyErrors.Inc()
		writeError(w, s.failure(r.Context(), err))
		return
	}
	// Newest first.
	out := make([]Version, 0, len(versions))
	for i := len(versions) - 1; i >= 0; i-- {
		out = append(out, versions[i])
	}
	writeJSON(w, http.StatusOK, HistoryAnswer{Origin: o.String(), Versions: out})
}

func originParam(raw string) (fetch.Origin, *Error) {
	if raw == "" {
		return fetch.Origin{}, badField("origin", "give the origin (?origin=https://example.com)")
	}
	o, err := parseOrigin(raw)
	if err != nil {
		return fetch.Origin{}, badField("origin", "%v", err)
	}
	return o, nil
}

func (s *Server) handleHistoryVersion(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if e := onlyParams(q, "origin", "hash"); e != nil {
		writeError(w, e)
		return
	}
	o, e := originParam(q.Get("origin"))
	if e != nil {
		writeError(w, e)
		return
	}
	hash := q.Get("hash")
	if !validHash(hash) {
		writeError(w, badField("hash", "want the 64 hexadecimal digits of a version's SHA-256 (from GET /v1/history)"))
		return
	}
	v, body, found, err := s.history.version(r.Context(), o, hash)
	if err != nil {
		s.metrics.historyErrors.Inc()
		writeError(w, s.failure(r.Context(), err))
		return
	}
	if !found {
		writeError(w, &Error{Status: http.StatusNotFound, Message: fmt.Sprintf("no version %s of %s in the history", hash, o), Field: "hash"})
		return
	}
	writeJSON(w, http.StatusOK, VersionAnswer{Origin: o.String(), Version: v, Body: string(body)})
}

// respond answers a POST route with the engine's value, and notes about
// files past the size limit: a check's answer as it is made (writeCheck),
// any other encoded whole, within MaxAnswerBytes.
func (s *Server) respond(w http.ResponseWriter, r *http.Request, v any, err error, notes []string) {
	if err != nil {
		writeError(w, s.failure(r.Context(), apiError(err)))
		return
	}
	if cs, ok := v.(*checkStream); ok {
		s.writeCheck(w, r, cs, notes)
		return
	}
	if rep, ok := v.(*tester.CheckReport); ok && len(notes) == 0 && writeCheckReport(w, rep, s.opts.MaxAnswerBytes) {
		return
	}
	if len(notes) == 0 {
		// Encoded into one buffer and written from it, not copied.
		aw := &answerWriter{w: w, max: s.opts.MaxAnswerBytes}
		switch err := json.NewEncoder(aw).Encode(v); {
		case aw.size > 0:
			writeError(w, s.answerTooLarge(aw.size))
		case err != nil && !aw.started:
			writeError(w, &Error{Message: "the answer cannot be encoded: " + err.Error()})
		}
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		writeError(w, &Error{Message: "the answer cannot be encoded: " + err.Error()})
		return
	}
	if len(b) > 1 && b[0] == '{' && b[len(b)-1] == '}' {
		// The notes go last: {..., "size_notes": [...]}.
		n, _ := json.Marshal(notes)
		sep := ","
		if len(b) == 2 {
			sep = ""
		}
		b = append(append(append(b[:len(b)-1], sep+`"size_notes":`...), n...), '}')
	}
	b = append(b, '\n')
	if int64(len(b)) > s.opts.MaxAnswerBytes {
		writeError(w, s.answerTooLarge(int64(len(b))))
		return
	}
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Cache-Control"] = noStore
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}

// stallWriter is the writer of a streamed answer: each piece past the
// first few kilobytes must be taken by the client within stall (a write
// deadline on the connection, set before the piece), so that a client
// that does not read holds its request's memory for stall, not for the
// server's WriteTimeout.
type stallWriter struct {
	http.ResponseWriter
	rc       *http.ResponseController
	stall    time.Duration
	written  int64
	timedOut bool
}

// stallFree is what an answer writes before its pieces are timed: a small
// answer goes out in one write, to the connection's buffers.
const stallFree = 32 << 10

func (w *stallWriter) Write(p []byte) (int, error) {
	if w.written+int64(len(p)) > stallFree {
		w.rc.SetWriteDeadline(time.Now().Add(w.stall))
	}
	n, err := w.ResponseWriter.Write(p)
	w.written += int64(n)
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		w.timedOut = true
	}
	return n, err
}

// stalled reports whether the answer was cut because its client stopped
// reading (err is the writer's).
func (w *stallWriter) stalled(err error) bool {
	return err != nil && (w.timedOut || errors.Is(err, os.ErrDeadlineExceeded))
}

// Unwrap lets http.ResponseController reach the connection.
func (w *stallWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// answerWriter is the writer of a JSON answer encoded whole (one Write):
// it sends the status and headers with it, or, for more than max bytes,
// writes nothing and notes the size.
type answerWriter struct {
	w       http.ResponseWriter
	max     int64
	started bool
	size    int64 // of an answer refused
}

func (a *answerWriter) Write(p []byte) (int, error) {
	if !a.started {
		if int64(len(p)) > a.max {
			a.size = int64(len(p))
			return 0, errAnswerTooLarge
		}
		h := a.w.Header()
		h["Content-Type"] = jsonContentType
		h["Cache-Control"] = noStore
		a.w.WriteHeader(http.StatusOK)
		a.started = true
	}
	return a.w.Write(p)
}

// answerTooLarge is the error of an answer found past MaxAnswerBytes
// (n bytes, or more when n is 0).
func (s *Server) answerTooLarge(n int64) *Error {
	size := "more"
	if n > 0 {
		size = sizeString(n) + ","
	}
	return &Error{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf(
		"the answer is %s more than %s (--max-answer-bytes); ask about fewer or shorter URLs, or fewer crawlers, in several requests", size, sizeString(s.opts.MaxAnswerBytes))}
}

// writeCheck answers a check with writeCheck, result by result. An answer
// cut after its start breaks the connection (http.ErrAbortHandler), so
// that the client does not take a part for the whole.
func (s *Server) writeCheck(w http.ResponseWriter, r *http.Request, cs *checkStream, notes []string) {
	ctx := r.Context()
	sw := &stallWriter{ResponseWriter: w, rc: http.NewResponseController(w), stall: s.opts.StallTimeout}
	started, err := writeCheck(sw, cs, notes, s.opts.MaxAnswerBytes, func() bool { return expired(ctx) })
	if sw.stalled(err) {
		s.metrics.stalls.Inc()
	}
	switch {
	case err == nil:
		return
	case started:
		s.log.Warn("check answer cut", "err", err, "client", clientIP(r).String())
		panic(http.ErrAbortHandler)
	case errors.Is(err, errAnswerTooLarge):
		writeError(w, s.answerTooLarge(0))
	case errors.Is(err, errNotFinite):
		writeError(w, &Error{Message: err.Error()})
	default:
		writeError(w, s.failure(ctx, apiError(err)))
	}
}

type sizeFile = struct {
	name string
	cut  bool
	size int
}

// answerPost answers a POST route: it decodes the request, validates it into
// the engine's input, checks its cost against the limits and takes the
// memory it needs, asks the engine, and answers with the value and the
// notes on files past the size limit.
func answerPost[Req, In any](s *Server, w http.ResponseWriter, r *http.Request,
	decodeReq func(http.ResponseWriter, *http.Request, *Req) *Error,
	input func(*Req) (In, *Error),
	costOf func(In) cost,
	run func(context.Context, In) (any, error),
	sizes func(In) []sizeFile) {
	var req Req
	if e := decodeReq(w, r, &req); e != nil {
		writeError(w, e)
		return
	}
	in, e := input(&req)
	if e != nil {
		writeError(w, e)
		return
	}
	c := costOf(in)
	if e := s.checkLimits(c); e != nil {
		writeError(w, e)
		return
	}
	if c.memory > 0 {
		release, e := s.acquire(r.Context(), s.admit.work, c.memory)
		if e != nil {
			writeError(w, e)
			return
		}
		defer release()
	}
	v, err := run(r.Context(), in)
	s.respond(w, r, v, err, truncationNotes(sizes(in)...))
}

// decodeAny is decode for a request type (the routes other than check).
func decodeAny[Req any](w http.ResponseWriter, r *http.Request, req *Req) *Error {
	return decode(w, r, req)
}

// handleCheck is answerPost written out: the hot route, with its own
// decoder, keeps every allocation it can.
func (s *Server) handleCheck(w http.ResponseWriter, r *http.Request) {
	var req CheckRequest
	if e := decodeCheck(w, r, &req, s.strings); e != nil {
		writeError(w, e)
		return
	}
	in, e := s.checkInput(&req)
	if e != nil {
		writeError(w, e)
		return
	}
	c := checkCost(in)
	if e := s.checkLimits(c); e != nil {
		writeError(w, e)
		return
	}
	if c.memory > 0 {
		release, e := s.acquire(r.Context(), s.admit.work, c.memory)
		if e != nil {
			writeError(w, e)
			return
		}
		defer release()
	}
	v, err := s.opts.Engine.Check(r.Context(), in)
	s.respond(w, r, v, err, truncationNotes(sizeFile{"robots", in.Truncated, len(in.Robots)}))
}

func (s *Server) handleLint(w http.ResponseWriter, r *http.Request) {
	answerPost(s, w, r, decodeAny[LintRequest], s.lintInput, lintCost, s.opts.Engine.Lint, func(in *LintInput) []sizeFile {
		return []sizeFile{{"robots", in.Truncated, len(in.Robots)}}
	})
}

func (s *Server) handleCompare(w http.ResponseWriter, r *http.Request) {
	answerPost(s, w, r, decodeAny[CompareRequest], s.compareInput, compareCost, s.opts.Engine.Compare, func(in *CompareInput) []sizeFile {
		return []sizeFile{{"robots", in.Truncated, len(in.Robots)}}
	})
}

func (s *Server) handleDiff(w http.ResponseWriter, r *http.Request) {
	answerPost(s, w, r, decodeAny[DiffRequest], s.diffInput, s.diffCost, s.opts.Engine.Diff, func(in *DiffInput) []sizeFile {
		return []sizeFile{{"old", in.OldTruncated, len(in.Old)}, {"new", in.NewTruncated, len(in.New)}}
	})
}
