package server

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/seed53c283f5/robotstxt/fetch"
	"golang.org/x/net/publicsuffix"
	"golang.org/x/time/rate"
)

// Every request the server makes to a site (a live check's fetch,
// GET /v1/fetch, each origin of POST /v1/bulk, a watch's check) goes
// through one transport, outbound, which bounds them three ways before
// they leave:
//
//   - per client (clientOf; the server's own work, the watches' checks,
//     counts as one client): requests at once, requests a second, and
//     the bytes their answers pull, a second;
//   - per registrable domain (the public suffix list's eTLD+1: every
//     subdomain of example.co.uk is example.co.uk): requests at once and
//     a second, whichever client asks;
//   - per resolved address (in the guard's dialer): new connections a
//     second, so that many names of one host are one host.
//
// A request that cannot go within its wait (at most half of what is left
// of its deadline, and at most OutboundOptions.MaxWait) is not made: the
// fetch fails with an error that is a cache.Refusal, of which the cache
// stores nothing (the site was not asked), and the answer says which
// bound refused it.

// OutboundOptions bound the requests the server makes to sites (see
// outbound.go). A zero field means its default; a negative one, no bound.
type OutboundOptions struct {
	// PerClient requests of one client at once; ClientRate a second,
	// ClientBurst at most in a burst.
	PerClient   int
	ClientRate  float64
	ClientBurst int
	// ClientBytesRate is the bytes a second the answers of one client's
	// requests may pull (robots.txt bodies as received), ClientBytesBurst
	// at most in a burst. Each request is charged the most it may read
	// before it goes (fetch.DefaultMaxBytes), and given back what it did
	// not read.
	ClientBytesRate, ClientBytesBurst int64
	// PerDomain requests to one registrable domain at once; DomainRate a
	// second, DomainBurst in a burst.
	PerDomain   int
	DomainRate  float64
	DomainBurst int
	// AddressRate new connections a second to one IP address,
	// AddressBurst in a burst.
	AddressRate  float64
	AddressBurst int
	// MaxWait bounds how long a request waits for its bounds.
	MaxWait time.Duration
}

// The defaults of OutboundOptions.
const (
	DefaultOutboundPerClient        = 8
	DefaultOutboundClientRate       = 20
	DefaultOutboundClientBurst      = 200
	DefaultOutboundClientBytesRate  = 2 << 20
	DefaultOutboundClientBytesBurst = 32 << 20
	DefaultOutboundPerDomain        = 4
	DefaultOutboundDomainRate       = 10
	DefaultOutboundDomainBurst      = 40
	DefaultOutboundAddressRate      = 20
	DefaultOutboundAddressBurst     = 60
	DefaultOutboundMaxWait          = 5 * time.Second
)

// outboundCharge is what a request is charged of its client's bytes
// before it goes: the most a fetch reads, and its header.
const outboundCharge = fetch.DefaultMaxBytes + 64<<10

func (o *OutboundOptions) setDefaults() {
	setInt := func(p *int, def int) {
		if *p == 0 {
			*p = def
		}
	}
	setFloat := func(p *float64, def float64) {
		if *p == 0 {
			*p = def
		}
	}
	setInt(&o.PerClient, DefaultOutboundPerClient)
	setFloat(&o.ClientRate, DefaultOutboundClientRate)
	setInt(&o.ClientBurst, DefaultOutboundClientBurst)
	if o.ClientBytesRate == 0 {
		o.ClientBytesRate = DefaultOutboundClientBytesRate
	}
	if o.ClientBytesBurst == 0 {
		o.ClientBytesBurst = DefaultOutboundClientBytesBurst
	}
	o.ClientBytesBurst = max(o.ClientBytesBurst, outboundCharge)
	setInt(&o.PerDomain, DefaultOutboundPerDomain)
	setFloat(&o.DomainRate, DefaultOutboundDomainRate)
	setInt(&o.DomainBurst, DefaultOutboundDomainBurst)
	setFloat(&o.AddressRate, DefaultOutboundAddressRate)
	setInt(&o.AddressBurst, DefaultOutboundAddressBurst)
	setDefault(&o.MaxWait, DefaultOutboundMaxWait)
}

// The bounds of outbound, as OutboundRefusal and the metrics name them.
const (
	boundClient  = "client"
	boundBytes   = "client bytes"
	boundDomain  = "domain"
	boundAddress = "address"
)

// OutboundRefusal is a request to a site the server did not make, because
// one of its outbound bounds was reached and did not free in time. It is
// a cache.Refusal: nothing is stored about the site.
type OutboundRefusal struct {
	Bound string // "client", "client bytes", "domain" or "address"
	Key   string // the domain or address; "" for the client's bounds
	Limit string // the bound, in words
}

func (e *OutboundRefusal) Error() string { return "server: " + e.Refusal() }

// Refusal says which bound refused the request.
func (e *OutboundRefusal) Refusal() string {
	what := "this client's requests to sites"
	switch e.Bound {
	case boundBytes:
		what = "the bytes this client's requests pulled from sites"
	case boundDomain:
		what = "the requests to " + e.Key + " (of every client)"
	case boundAddress:
		what = "the new connections to " + e.Key
	}
	return fmt.Sprintf("%s are at their bound (%s) and it did not free in time; retry later", what, e.Limit)
}

// keyed is a bound per key: at most n at once (none when n <= 0) and a
// token bucket (none when lim is nil), made for a key when first needed
// and forgotten when no request holds or waits for it and its bucket is
// full.
type keyed struct {
	n     int
	rate  rate.Limit
	burst int

	mu    sync.Mutex
	keys  map[string]*keyState
	swept time.Time // the last sweep of keys whose bucket is full again
}

type keyState struct {
	sem  chan struct{}
	lim  *rate.Limiter
	refs int
}

func newKeyed(n int, r float64, burst int) *keyed {
	k := &keyed{n: n, burst: burst, keys: map[string]*keyState{}}
	if r > 0 && burst > 0 {
		k.rate = rate.Limit(r)
	}
	return k
}

func (k *keyed) get(key string) *keyState {
	k.mu.Lock()
	defer k.mu.Unlock()
	st := k.keys[key]
	if st == nil {
		st = &keyState{}
		if k.n > 0 {
			st.sem = make(chan struct{}, k.n)
		}
		if k.rate > 0 {
			st.lim = rate.NewLimiter(k.rate, k.burst)
		}
		k.keys[key] = st
	}
	st.refs++
	return st
}

// put gives back a reference of get. A key whose bucket is not full is
// kept (forgetting it would give a full bucket back), up to a bound on
// keys remembered; at most once a second, the keys no request holds whose
// buckets are full again are forgotten.
func (k *keyed) put(key string, st *keyState) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if st.refs--; st.refs > 0 {
		return
	}
	now := time.Now()
	if st.lim == nil || st.lim.TokensAt(now) >= float64(k.burst) || len(k.keys) > maxOutboundKeys {
		delete(k.keys, key)
	}
	if now.Sub(k.swept) >= time.Second && len(k.keys) > 64 {
		k.swept = now
		for key, st := range k.keys {
			if st.refs == 0 && (st.lim == nil || st.lim.TokensAt(now) >= float64(k.burst)) {
				delete(k.keys, key)
			}
		}
	}
}

// maxOutboundKeys bounds the keys a bound remembers with a bucket not yet
// full (a few hundred bytes each); past it, such keys are forgotten when
// their last request ends.
const maxOutboundKeys = 10_000

// take waits, within ctx, for one place and n tokens of key; release
// gives the place back (the tokens are spent). A wait that cannot end
// before ctx's deadline ends at once.
func (k *keyed) take(ctx context.Context, key string, n int) (release func(), err error) {
	st := k.get(key)
	if st.lim != nil {
		if err := st.lim.WaitN(ctx, n); err != nil {
			k.put(key, st)
			return nil, err
		}
	}
	if st.sem != nil {
		select {
		case st.sem <- struct{}{}:
		case <-ctx.Done():
			k.put(key, st)
			return nil, ctx.Err()
		}
	}
	return func() {
		if st.sem != nil {
			<-st.sem
		}
		k.put(key, st)
	}, nil
}

// outbound is the transport of the server's requests to sites.
type outbound struct {
	rt      http.RoundTripper
	opts    OutboundOptions
	clients *keyed // requests at once and a second
	bytes   *keyed // bytes a second
	domains *keyed
	addrs   *keyed // new connections a second (the guard's dialer)

	inFlight atomic.Int64
	requests *prometheus.CounterVec // by result: sent, or the bound that refused it
	waits    *prometheus.CounterVec // by bound
	pulled   prometheus.Counter
}

func newOutbound(rt http.RoundTripper, o OutboundOptions) *outbound {
	o.setDefaults()
	ob := &outbound{
		rt: rt, opts: o,
		clients: newKeyed(o.PerClient, o.ClientRate, o.ClientBurst),
		bytes:   newKeyed(0, float64(o.ClientBytesRate), int(o.ClientBytesBurst)),
		domains: newKeyed(o.PerDomain, o.DomainRate, o.DomainBurst),
		addrs:   newKeyed(0, o.AddressRate, o.AddressBurst),
	}
	ob.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "robotstxt_outbound_requests_total",
		Help: "Requests to sites (robots.txt fetches, with their redirects), by result: sent, or refused by a bound (client, client_bytes, domain, address).",
	}, []string{"result"})
	ob.waits = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "robotstxt_outbound_waits_total",
		Help: "Requests to sites that waited for a bound (client, client_bytes, domain, address) before they went or were refused.",
	}, []string{"bound"})
	ob.pulled = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "robotstxt_outbound_bytes_total",
		Help: "Bytes of the answers of requests to sites, as received.",
	})
	return ob
}

// collectors are outbound's metrics.
func (ob *outbound) collectors() []prometheus.Collector {
	return []prometheus.Collector{ob.requests, ob.waits, ob.pulled, prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "robotstxt_outbound_in_flight",
		Help: "Requests to sites under way.",
	}, func() float64 { return float64(ob.inFlight.Load()) })}
}

// waitContext is ctx bounded to the wait of a request for its bounds.
func (ob *outbound) waitContext(ctx context.Context) (context.Context, context.CancelFunc) {
	wait := ob.opts.MaxWait
	if d, ok := ctx.Deadline(); ok {
		wait = min(wait, time.Until(d)/2)
	}
	return context.WithTimeout(ctx, wait)
}

// clientName is the key of ctx's client in the bounds per client.
func clientName(ctx context.Context) string {
	if c, ok := clientFrom(ctx); ok {
		return c.String()
	}
	return "server"
}

// registrable is the registrable domain of host (eTLD+1): host itself
// for an IP address, a public suffix or a name the list cannot read.
func registrable(host string) string {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if _, err := netip.ParseAddr(host); err == nil {
		return host
	}
	if d, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
		return d
	}
	return host
}

// RoundTrip makes req within its client's and its domain's bounds.
func (ob *outbound) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	client := clientName(ctx)
	domain := registrable(req.URL.Hostname())
	wctx, cancel := ob.waitContext(ctx)
	defer cancel()
	var releases []func()
	undo := func() {
		for _, r := range releases {
			r()
		}
	}
	step := func(k *keyed, bound, key string, n int, limit string) error {
		rel, err := ob.takeCounted(wctx, k, bound, key, n)
		if err != nil {
			undo()
			if ctx.Err() != nil {
				return ctx.Err()
			}
			ob.requests.WithLabelValues(metricName(bound)).Inc()
			shown := key
			if bound == boundClient || bound == boundBytes {
				shown = ""
			}
			return &OutboundRefusal{Bound: bound, Key: shown, Limit: limit}
		}
		releases = append(releases, rel)
		return nil
	}
	o := &ob.opts
	if err := step(ob.clients, boundClient, client, 1, fmt.Sprintf("%d at once, %g a second, --outbound-per-client and --outbound-rate", o.PerClient, o.ClientRate)); err != nil {
		return nil, err
	}
	if err := step(ob.bytes, boundBytes, client, outboundCharge, fmt.Sprintf("%s a second, --outbound-bytes-rate", sizeString(o.ClientBytesRate))); err != nil {
		return nil, err
	}
	if err := step(ob.domains, boundDomain, domain, 1, fmt.Sprintf("%d at once, %g a second, --outbound-per-domain", o.PerDomain, o.DomainRate)); err != nil {
		return nil, err
	}
	ob.inFlight.Add(1)
	ob.requests.WithLabelValues("sent").Inc()
	resp, err := ob.rt.RoundTrip(req)
	finish := func(read int64) {
		ob.inFlight.Add(-1)
		undo()
		ob.refund(client, outboundCharge-read)
	}
	if err != nil {
		finish(0)
		return nil, err
	}
	resp.Body = &countedBody{ReadCloser: resp.Body, ob: ob, finish: finish}
	return resp, nil
}

// takeCounted is k.take, counting a wait in the metrics.
func (ob *outbound) takeCounted(ctx context.Context, k *keyed, bound, key string, n int) (func(), error) {
	st := k.get(key)
	free := (st.lim == nil || st.lim.Tokens() >= float64(n)) && (st.sem == nil || len(st.sem) < cap(st.sem))
	k.put(key, st)
	if !free {
		ob.waits.WithLabelValues(metricName(bound)).Inc()
	}
	return k.take(ctx, key, n)
}

// refund gives client back n bytes charged and not read (n < 0: charges
// them, past the charge).
func (ob *outbound) refund(client string, n int64) {
	if n == 0 || ob.bytes.rate == 0 {
		return
	}
	st := ob.bytes.get(client)
	if st.lim != nil {
		// A negative reservation adds tokens (at most the burst).
		st.lim.ReserveN(time.Now(), int(-n))
	}
	ob.bytes.put(client, st)
}

func metricName(bound string) string { return strings.ReplaceAll(bound, " ", "_") }

// countedBody is the body of an answer: it counts the bytes read, and
// gives the request's bounds back when closed.
type countedBody struct {
	io.ReadCloser
	ob     *outbound
	read   int64
	once   sync.Once
	finish func(read int64)
}

func (b *countedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.read += int64(n)
	b.ob.pulled.Add(float64(n))
	return n, err
}

func (b *countedBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(func() { b.finish(b.read) })
	return err
}

// dialAllowed waits, within ctx, for a new connection to a (its bound per
// address); the error is an OutboundRefusal.
func (ob *outbound) dialAllowed(ctx context.Context, a netip.Addr) error {
	if ob == nil || ob.addrs.rate == 0 {
		return nil
	}
	wctx, cancel := ob.waitContext(ctx)
	defer cancel()
	rel, err := ob.takeCounted(wctx, ob.addrs, boundAddress, a.String(), 1)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		ob.requests.WithLabelValues(metricName(boundAddress)).Inc()
		return &OutboundRefusal{Bound: boundAddress, Key: a.String(), Limit: fmt.Sprintf("%g a second, --outbound-address-rate", ob.opts.AddressRate)}
	}
	rel()
	return nil
}
