package server

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/internal/words"
	"github.com/seed53c283f5/robotstxt/store/storeopen"
	"github.com/seed53c283f5/robotstxt/tester"
	"github.com/seed53c283f5/robotstxt/watch"
)

// WatchOptions configure the server's watches (package watch): the
// routes /v1/watches, and the checks Serve runs.
type WatchOptions struct {
	// Specs are watches kept at start (serve --watch FILE): each gets an
	// id made from its spec, so a restart keeps their state.
	Specs []watch.Spec
	// MinInterval bounds how often an origin is fetched for its watches
	// (0 means watch.DefaultMinInterval, 5 minutes).
	MinInterval time.Duration
	// MaxWatches and MaxPerClient bound the watches the server keeps, in
	// all and per client (IP address); 0 means the defaults of package
	// watch (1,000 and 50).
	MaxWatches, MaxPerClient int
	// PollInterval, Backoff and Jitter are the engine's (watch.Options);
	// tests shorten them.
	PollInterval, Backoff time.Duration
	Jitter                func(time.Duration) time.Duration
	// Key seals the webhooks and secrets of the watches in the store
	// (watch.KeySize bytes; see watch.KeyFromFile). nil means a random key
	// for this run: the webhooks of the watches kept are then unreadable
	// after a restart.
	Key []byte
	// AdminToken, when set, reads, lists and deletes every watch, given
	// in the AdminHeader; without it, only a watch's owner does, with the
	// owner secret its creation answered (OwnerHeader).
	AdminToken string
}

// The headers that prove a right on watches.
const (
	// OwnerHeader carries owner secrets, as POST /v1/watches answers
	// them: one, or several separated by commas (at most
	// maxOwnerSecrets). On a POST, the first one owns the new watch too.
	OwnerHeader = "X-Robotstxt-Owner"
	// AdminHeader carries the admin token (WatchOptions.AdminToken).
	AdminHeader = "X-Robotstxt-Admin"
)

// maxOwnerSecrets bounds the owner secrets one request gives.
const maxOwnerSecrets = 64

// webhookRefused are the special-purpose ranges (the IANA registries of
// IPv4 and IPv6 special-purpose addresses) that no webhook may be on,
// even with --allow-private, beside the ones the guard refuses: they are
// for documentation, benchmarks or other uses than delivery.
var webhookRefused = []struct {
	prefix netip.Prefix
	use    string
}{
	{netip.MustParsePrefix("192.0.2.0/24"), "documentation (TEST-NET-1)"},
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation (TEST-NET-2)"},
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation (TEST-NET-3)"},
	{netip.MustParsePrefix("2001:db8::/32"), "documentation"},
	{netip.MustParsePrefix("3fff::/20"), "documentation"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking"},
	{netip.MustParsePrefix("2001:2::/48"), "benchmarking"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol assignments"},
	{netip.MustParsePrefix("192.88.99.0/24"), "the deprecated 6to4 relay anycast"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},
	{netip.MustParsePrefix("0.0.0.0/8"), "this network"},
	{netip.MustParsePrefix("100::/64"), "discard-only"},
	{netip.MustParsePrefix("2001:10::/28"), "ORCHID"},
	{netip.MustParsePrefix("2001:20::/28"), "ORCHIDv2"},
	{netip.MustParsePrefix("5f00::/16"), "segment routing (SRv6) SIDs"},
}

// webhookRange is the use of the special-purpose range a is in, when a
// webhook may not be there; "" otherwise.
func webhookRange(a netip.Addr) string {
	a = a.Unmap().WithZone("")
	for _, r := range webhookRefused {
		if r.prefix.Contains(a) {
			return r.use
		}
	}
	return ""
}

// initWatches makes the server's watch engine over its store: checks
// fetch through the Google-policy cache, now (a refresh), and record the
// history; webhooks and sitemaps are reached through the guard.
func (s *Server) initWatches() error {
	o := &s.opts.Watch
	client := s.webhookClient()
	e, err := watch.New(&watch.Options{
		Store: s.store,
		Fetch: func(ctx context.Context, origin string) ([]byte, *tester.FetchInfo, error) {
			org, err := fetch.OriginOf(origin)
			if err != nil {
				return nil, nil, err
			}
			a, info, err := s.fetchAnswer(ctx, org, robotstxt.DefaultDialect, true)
			if err != nil {
				return nil, nil, err
			}
			var limited *OutboundRefusal
			if errors.As(a.Err, &limited) {
				// Not the site's answer: no alert, checked again.
				return nil, nil, limited
			}
			var body []byte
			if a.Policy == fetch.Rules && a.Robots != nil {
				body = []byte(a.Robots.Body())
			}
			return body, &info, nil
		},
		Client:       client,
		CheckWebhook: s.checkWebhook,
		Now:          s.opts.Now,
		MinInterval:  o.MinInterval,
		PollInterval: o.PollInterval,
		Backoff:      o.Backoff,
		Jitter:       o.Jitter,
		MaxWatches:   o.MaxWatches,
		MaxPerClient: o.MaxPerClient,
		Logger:       s.log,
		Key:          o.Key,
		Drain:        s.opts.ShutdownTimeout,
		ClientKey: func(c string) string {
			// A watch of an older store records the full address.
			if a, err := netip.ParseAddr(c); err == nil {
				return clientKey(a).String()
			}
			return c
		},
		Durable: s.storeDurable,
	})
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	s.watches = e
	s.metrics.registry.MustRegister(e.Collector(), prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "robotstxt_store_damaged",
		Help: "1 when the store's file was found damaged at start and moved aside: the cache, history and watches it held are not in this run (see /readyz).",
	}, func() float64 {
		if storeopen.Notice(s.store) != "" {
			return 1
		}
		return 0
	}))
	if len(o.Specs) > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := e.Load(ctx, o.Specs); err != nil {
			// Said as serve says it: the file is its --watch.
			return errors.New("--watch: " + strings.TrimPrefix(err.Error(), "watch: "))
		}
	}
	return nil
}

// startWatches runs the watch engine until ctx ends; the function it
// returns stops it and waits for it.
func (s *Server) startWatches(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.watches.Run(ctx)
	}()
	return func() {
		cancel()
		<-done
	}
}

// checkWebhook refuses a webhook whose host is, or resolves to, an address
// the guard refuses, as a live fetch would be (unless AllowPrivate). The
// guard checks the address again when the alert is posted.
func (s *Server) checkWebhook(ctx context.Context, u *url.URL) error {
	g := s.guard
	host := u.Hostname()
	port := u.Port()
	if port == "" {
		port = "443"
		if u.Scheme == "http" {
			port = "80"
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	addrs, err := g.lookup(ctx, "ip", host)
	if err != nil {
		return fmt.Errorf("%s does not resolve: %v", host, err)
	}
	for _, a := range addrs {
		if use := webhookRange(a); use != "" {
			return fmt.Errorf("%s is an address for %s, not for delivery: alerts go to public addresses only", a.Unmap(), use)
		}
	}
	if g.AllowPrivate {
		return nil
	}
	for _, a := range addrs {
		if g.exempt[netip.AddrPortFrom(a, portNum(port))] {
			continue
		}
		if class, via := addressClass(a); class != "" {
			if via != "" {
				via = " (" + via + ")"
			}
			return fmt.Errorf("%s is a %s address%s: alerts go to public addresses only (start the server with --allow-private to allow it)", a.Unmap(), class, via)
		}
	}
	return nil
}

// watchError is the answer for an error of package watch.
func watchError(err error) *Error {
	var we *watch.Error
	switch {
	case errors.As(err, &we) && we.NotFound:
		return &Error{Status: http.StatusNotFound, Message: we.Msg}
	case errors.As(err, &we) && we.Limit:
		return &Error{Status: http.StatusTooManyRequests, Message: we.Msg}
	case errors.As(err, &we):
		return badField(we.Field, "%s", we.Msg)
	case errors.Is(err, watch.ErrNotDurable):
		return &Error{Status: http.StatusServiceUnavailable, Retry: 30,
			Message: "the store cannot keep watches now (" + strings.TrimPrefix(err.Error(), "watch: ") + "): try again when it is back"}
	}
	return nil
}

// storeDurable says whether a write to the store lasts: not when the
// store fell back to memory (Redis away, a bbolt file held by another
// process). A store that can be asked (Redis) is asked first.
func (s *Server) storeDurable(ctx context.Context) error {
	if p, ok := s.store.(interface{ Ping(context.Context) error }); ok {
		ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		p.Ping(ctx)
		cancel()
	}
	if h := storeopen.Health(s.store); h.Degraded {
		return errors.New(h.Message)
	}
	return nil
}

// isAdmin reports whether r gives the admin token of the watches.
func (s *Server) isAdmin(r *http.Request) bool {
	t := s.opts.Watch.AdminToken
	got := r.Header.Get(AdminHeader)
	return t != "" && got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(t)) == 1
}

// ownerSecrets are the owner secrets r gives.
func ownerSecrets(r *http.Request) []string {
	var out []string
	for _, v := range r.Header.Values(OwnerHeader) {
		for part := range strings.SplitSeq(v, ",") {
			if p := strings.TrimSpace(part); p != "" && len(out) < maxOwnerSecrets {
				out = append(out, p)
			}
		}
	}
	return out
}

// owns reports whether r may read and delete w: with the admin token, or
// one of w's owner secrets.
func (s *Server) owns(r *http.Request, w *watch.Watch) bool {
	if s.isAdmin(r) {
		return true
	}
	for _, sec := range ownerSecrets(r) {
		if w.OwnedBy(sec) {
			return true
		}
	}
	return false
}

// lookupOwned finds the watch of r's path that r owns; a watch r does not
// own is answered as one that does not exist (404), so that ids cannot be
// probed.
func (s *Server) lookupOwned(r *http.Request) (string, *Error) {
	id, e := watchID(r)
	if e != nil {
		return "", e
	}
	w, err := s.watches.Lookup(r.Context(), id)
	if err == nil && !s.owns(r, w) {
		err = &watch.Error{NotFound: true, Msg: fmt.Sprintf("no watch %q that you own: give its owner secret in %s", id, OwnerHeader)}
	}
	if err != nil {
		if e := watchError(err); e != nil {
			return "", e
		}
		return "", s.failure(r.Context(), err)
	}
	return id, nil
}

// WatchCreated is the answer of POST /v1/watches: the watch, and its
// owner secret, shown this once.
type WatchCreated struct {
	*watch.Status
	// OwnerSecret reads, lists and deletes the watch, in the
	// X-Robotstxt-Owner header. The server keeps only its hash: it is
	// shown this once.
	OwnerSecret string `json:"owner_secret"`
}

// WatchList is the answer of GET /v1/watches.
type WatchList struct {
	Watches []*watch.Status `json:"watches"`
	// MinInterval is how often an origin is fetched at most.
	MinInterval string `json:"min_interval"`
}

func (s *Server) handleWatchCreate(w http.ResponseWriter, r *http.Request) error {
	var sp watch.Spec
	if e := decode(w, r, &sp); e != nil {
		return e
	}
	m := watch.Maker{Client: s.clientKeyOf(r)}
	if secs := ownerSecrets(r); len(secs) > 0 {
		m.Owner = secs[0]
	}
	wt, err := s.watches.CreateAs(r.Context(), &sp, m)
	if err != nil {
		if e := watchError(err); e != nil {
			return e
		}
		return err
	}
	st, err := s.watches.Get(r.Context(), wt.ID)
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/v1/watches/"+wt.ID)
	writeJSON(w, http.StatusCreated, &WatchCreated{Status: st, OwnerSecret: wt.OwnerSecret})
	return nil
}

func (s *Server) handleWatchList(w http.ResponseWriter, r *http.Request) error {
	if e := onlyParams(r.URL.Query()); e != nil {
		return e
	}
	keep := func(w *watch.Watch) bool { return s.owns(r, w) }
	if s.isAdmin(r) {
		keep = nil
	}
	ws, err := s.watches.ListFunc(r.Context(), keep)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, &WatchList{Watches: ws, MinInterval: words.Duration(s.watches.MinInterval())})
	return nil
}

// watchID reads the id of a watch's path: 16 hexadecimal digits.
func watchID(r *http.Request) (string, *Error) {
	id := r.PathValue("id")
	ok := len(id) == 16
	for _, c := range id {
		ok = ok && ('0' <= c && c <= '9' || 'a' <= c && c <= 'f')
	}
	if !ok {
		return "", badField("id", "%q is not a watch id (16 hexadecimal digits, as POST /v1/watches answers)", clip(id))
	}
	return id, nil
}

func (s *Server) handleWatchGet(w http.ResponseWriter, r *http.Request) error {
	if e := onlyParams(r.URL.Query()); e != nil {
		return e
	}
	id, e := s.lookupOwned(r)
	if e != nil {
		return e
	}
	st, err := s.watches.Get(r.Context(), id)
	if err != nil {
		if e := watchError(err); e != nil {
			return e
		}
		return err
	}
	writeJSON(w, http.StatusOK, st)
	return nil
}

func (s *Server) handleWatchDelete(w http.ResponseWriter, r *http.Request) error {
	if err := crossOrigin.Check(r); err != nil {
		return &Error{Status: http.StatusForbidden, Message: "this request comes from a page of another origin (" + err.Error() + "); the API answers its own page and clients that are not browsers"}
	}
	id, e := s.lookupOwned(r)
	if e != nil {
		return e
	}
	if err := s.watches.Delete(r.Context(), id); err != nil {
		if e := watchError(err); e != nil {
			return e
		}
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"deleted": id})
	return nil
}
