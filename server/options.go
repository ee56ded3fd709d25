package server

import (
	"context"
	"log/slog"
	"net/netip"
	"time"

	"github.com/seed53c283f5/robotstxt/clientip"
	"github.com/seed53c283f5/robotstxt/store"
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
	// MaxConnsPerClient bounds the connections of one client (its peer
	// address, an IPv6 /64 as one) among them: past it, a new connection
	// of that client is closed at once, so that one client's slow
	// connections cannot hold every place. A trusted proxy
	// (TrustedProxies) is not bound by it. 0 means
	// DefaultMaxConnsPerClient, a negative value no bound.
	MaxConns, MaxConnsPerClient int
	// TrustedProxies are the proxies (load balancers) in front of the
	// server whose X-Forwarded-For and X-Real-IP name the client, as
	// clientip.Of reads them; every bound per client then applies to
	// that client (its address, an IPv6 /64 as one). Empty (the
	// default): nobody's headers are believed, the peer is the client.
	TrustedProxies clientip.Trusted
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
	// GuardDecisions is the decision log robotstxt guard --decisions
	// writes: GET /v1/guard and the page's guard view read its end. ""
	// for none.
	GuardDecisions string
}

func setDefault(d *time.Duration, def time.Duration) {
	if *d <= 0 {
		*d = def
	}
}
