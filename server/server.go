package server

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/tester"
	"github.com/seed53c283f5/robotstxt/verify"
	"github.com/seed53c283f5/robotstxt/watch"
)

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
	// identifier answers POST /v1/verify (verify.go).
	identifier *verify.Identifier
	// verifying counts each client's POST /v1/verify in flight.
	verifying clientGate
}

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
	s.identifier = s.newIdentifier()
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

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }
