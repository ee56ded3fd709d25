package watch

import (
	"context"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seed53c283f5/robotstxt/internal/words"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/tester"
)

// Options configure an Engine. Store and Fetch are required; the zero
// value of every other field works.
type Options struct {
	// Store keeps the watches, their state and their history. A store
	// that is a store.Leaser shared between processes (Redis) lets
	// several engines share the watches, each check running once.
	Store store.Store
	// Fetch fetches the robots.txt of an origin ("https://example.com")
	// now, as tester.FetchInfoOf reports it: the service's fetch through
	// its cache (cache.Cache.RefreshOrigin) and its address guard. An
	// unreachable site is an answer (info.Status 0), not an error.
	Fetch func(ctx context.Context, origin string) (body []byte, info *tester.FetchInfo, err error)
	// Client posts the alerts and reads sitemaps; nil means a client
	// with a 10 s timeout. The service gives one whose connections go
	// through its address guard.
	Client *http.Client
	// CheckWebhook, when set, refuses a webhook URL when a watch is made
	// (the service: an address the guard refuses).
	CheckWebhook func(ctx context.Context, u *url.URL) error
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// MinInterval bounds how often an origin is fetched, whatever its
	// watches ask (0 means DefaultMinInterval).
	MinInterval time.Duration
	// PollInterval is how often Run looks for checks due (0 means
	// MinInterval/10, at least a second).
	PollInterval time.Duration
	// The bounds (0 means the defaults): watches in all, watches per
	// client, URLs and crawlers per watch, events in a watch's history.
	MaxWatches, MaxPerClient, MaxURLs, MaxCrawlers, MaxHistory int
	// Deliveries: an alert is tried at most Attempts times (0 means 6),
	// waiting Backoff (0 means 2 s) after the first failure, twice as
	// long after each next, at most 5 minutes. The first try waits
	// FirstTimeout for an answer (0 means 5 s), the next ones 30 s.
	Attempts     int
	Backoff      time.Duration
	FirstTimeout time.Duration
	// Drain is how long Run and Deliver go on sending the alerts queued
	// when their context ends (0: they stop at once); what is not sent
	// stays in the store's outbox for the next start.
	Drain time.Duration
	// Concurrency bounds the checks of origins in flight at once (0
	// means 64); each origin has at most one. Run starts the checks of
	// the origins due and does not wait for them: a slow origin holds
	// its own check, not the others'.
	Concurrency int
	// Key seals each watch's webhook and secret in the store (AES-256-GCM):
	// 32 bytes. nil means a random key for this engine's life, so that
	// the webhooks of the watches it made are unreadable after a restart:
	// a service gives a key it keeps (see KeyFromFile).
	Key []byte
	// ClientKey turns the client a watch was made by, as an old watch
	// records it (a full IP address), into the key Create is given now
	// (an IPv6 /64), for the per-client bound. nil: unchanged.
	ClientKey func(client string) string
	// Durable, when set, says whether a write to the store lasts: it is
	// asked before and after a watch is made or deleted, and a non-nil
	// error refuses the change (ErrNotDurable); the service says the
	// store fell back to memory.
	Durable func(ctx context.Context) error
	// Owner names this engine in the leases (0 means a random name).
	Owner string
	// Logger receives the engine's warnings; nil discards them.
	Logger *slog.Logger
	// Jitter spreads the next check of a watch around its interval: it
	// returns the wait after a check. nil means every, plus or minus up
	// to a tenth.
	Jitter func(every time.Duration) time.Duration
}

// Engine keeps the watches and checks them. Its methods are safe for
// concurrent use.
type Engine struct {
	opts    Options
	log     *slog.Logger
	store   store.Store
	leaser  store.Leaser
	owner   string
	client  *http.Client
	out     *outbox
	metrics *Metrics
	aead    cipher.AEAD

	// checking are the origins whose check is in flight; slots bounds
	// them (Concurrency).
	checking map[string]bool
	slots    chan struct{}
	checks   sync.WaitGroup

	// local serialises the changes of the index and the checks of an
	// origin when the store is not shared.
	local sync.Mutex
	mu    sync.Mutex
	// watches are the watches known, by id, as last read from the store.
	watches map[string]*Watch
	// next is when each watch is due, as this engine last knew it.
	next map[string]time.Time
	// last is when each watch was last checked, for the metrics.
	last map[string]time.Time
}

// Keys of the store. Origins are keys of the cache: these never clash
// with them (no scheme).
const (
	indexKey    = "watch index"
	watchPrefix = "watch "
	statePrefix = "watch-state "
	bodyPrefix  = "watch-body "   // + origin: the last body with rules seen
	originKey   = "watch-origin " // + origin: when it was last fetched
	leasePrefix = "watch-check "  // + origin
)

// New returns an engine over o.Store. It starts nothing: see Run and
// Tick.
func New(o *Options) (*Engine, error) {
	if o == nil || o.Store == nil || o.Fetch == nil {
		return nil, errors.New("watch: New needs a store and a fetch function")
	}
	e := &Engine{opts: *o, watches: map[string]*Watch{}, next: map[string]time.Time{}, last: map[string]time.Time{}}
	p := &e.opts
	if p.Now == nil {
		p.Now = time.Now
	}
	setDefault(&p.MinInterval, DefaultMinInterval)
	setDefault(&p.PollInterval, max(p.MinInterval/10, time.Second))
	setDefault(&p.Backoff, 2*time.Second)
	setInt(&p.MaxWatches, DefaultMaxWatches)
	setInt(&p.MaxPerClient, DefaultMaxPerClient)
	setInt(&p.MaxURLs, DefaultMaxURLs)
	setInt(&p.MaxCrawlers, DefaultMaxCrawlers)
	setInt(&p.MaxHistory, DefaultMaxHistory)
	setInt(&p.Attempts, 6)
	setDefault(&p.FirstTimeout, firstTryTimeout)
	setInt(&p.Concurrency, 64)
	if p.Jitter == nil {
		p.Jitter = func(every time.Duration) time.Duration {
			return every - every/10 + time.Duration(mrand.Int64N(int64(every/5)+1))
		}
	}
	e.log = p.Logger
	if e.log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	e.store = p.Store
	if l, ok := p.Store.(store.Leaser); ok {
		if s, ok := p.Store.(interface{ Shared() bool }); !ok || s.Shared() {
			e.leaser = l
		}
	}
	e.owner = p.Owner
	if e.owner == "" {
		var b [12]byte
		rand.Read(b[:])
		e.owner = "watch-" + hex.EncodeToString(b[:])
	}
	e.client = p.Client
	if e.client == nil {
		e.client = &http.Client{Timeout: 10 * time.Second}
	}
	aead, err := newSealer(p.Key)
	if err != nil {
		return nil, err
	}
	e.aead = aead
	e.out = newOutbox()
	e.checking = map[string]bool{}
	e.slots = make(chan struct{}, p.Concurrency)
	e.metrics = newMetrics(e)
	return e, nil
}

func setDefault(d *time.Duration, def time.Duration) {
	if *d <= 0 {
		*d = def
	}
}

func setInt(n *int, def int) {
	if *n <= 0 {
		*n = def
	}
}

// MinInterval is how often an origin is fetched at most.
func (e *Engine) MinInterval() time.Duration { return e.opts.MinInterval }

// Create validates sp and keeps the new watch, made by client (a client
// key, or "" for none: the per-client bound then does not apply), with a
// new owner secret (the returned watch's OwnerSecret). Its error is an
// *Error for a bad spec or a bound reached, ErrNotDurable when the store
// would not keep it.
func (e *Engine) Create(ctx context.Context, sp *Spec, client string) (*Watch, error) {
	return e.CreateAs(ctx, sp, Maker{Client: client})
}

// Maker is who makes a watch.
type Maker struct {
	// Client is the client's key (an IPv4 address, an IPv6 /64, a
	// token's name), for the per-client bound; "" for none.
	Client string
	// Owner is an owner secret the client holds already, from an earlier
	// Create (ValidOwnerSecret), so that one secret owns all its watches;
	// "" for a new one.
	Owner string
}

// CreateAs is Create, for m.
func (e *Engine) CreateAs(ctx context.Context, sp *Spec, m Maker) (*Watch, error) {
	if m.Owner != "" && !ValidOwnerSecret(m.Owner) {
		return nil, badField("owner", "not an owner secret (wo_ and 43 characters, as a watch's creation answered it)")
	}
	if m.Owner == "" {
		m.Owner = newOwnerSecret()
	}
	return e.create(ctx, sp, m, "")
}

// durable asks Options.Durable whether the store keeps writes now.
func (e *Engine) durable(ctx context.Context) error {
	if e.opts.Durable == nil {
		return nil
	}
	if err := e.opts.Durable(ctx); err != nil {
		return fmt.Errorf("%w: %v", ErrNotDurable, err)
	}
	return nil
}

// clientKey is the per-client bound's key of a watch's client.
func (e *Engine) clientKey(c string) string {
	if e.opts.ClientKey != nil && c != "" {
		return e.opts.ClientKey(c)
	}
	return c
}

// Load keeps the watches of a file (see ParseSpecs): each gets an id made
// from its spec, so that loading the same file again, at the next start,
// keeps their state rather than adding watches.
func (e *Engine) Load(ctx context.Context, specs []Spec) ([]*Watch, error) {
	var out []*Watch
	for i := range specs {
		w, err := e.create(ctx, &specs[i], Maker{}, specID(&specs[i]))
		if err != nil {
			return out, fmt.Errorf("watch: watch %d (%s): %s", i+1, specs[i].Origin, strings.TrimPrefix(err.Error(), "watch: "))
		}
		out = append(out, w)
	}
	return out, nil
}

func (e *Engine) create(ctx context.Context, sp *Spec, m Maker, id string) (*Watch, error) {
	w, err := e.validate(ctx, sp)
	if err != nil {
		return nil, err
	}
	if id == "" {
		if err := e.durable(ctx); err != nil {
			return nil, err
		}
	}
	client := m.Client
	w.Client = client
	if m.Owner != "" {
		w.OwnerHash = ownerHash(m.Owner)
	}
	w.Created = e.opts.Now().UTC()
	w.ID = id
	if id == "" {
		w.ID = newID()
	}
	err = e.withIndex(ctx, func(ids []string) ([]string, error) {
		if slices.Contains(ids, w.ID) {
			return ids, e.putWatch(ctx, w)
		}
		if len(ids) >= e.opts.MaxWatches {
			return nil, &Error{Limit: true, Msg: fmt.Sprintf("this server keeps %d watches at most: delete one first", e.opts.MaxWatches)}
		}
		if client != "" {
			n := 0
			for _, id := range ids {
				if o := e.load(ctx, id); o != nil && e.clientKey(o.Client) == client {
					n++
				}
			}
			if n >= e.opts.MaxPerClient {
				return nil, &Error{Limit: true, Msg: fmt.Sprintf("a client makes %d watches at most: delete one first", e.opts.MaxPerClient)}
			}
		}
		if err := e.putWatch(ctx, w); err != nil {
			return nil, err
		}
		return append(ids, w.ID), nil
	})
	if err != nil {
		return nil, err
	}
	if err := e.durable(ctx); err != nil && id == "" {
		// Kept in memory only: undone, so that it is not checked.
		e.withIndex(context.WithoutCancel(ctx), func(ids []string) ([]string, error) {
			if i := slices.Index(ids, w.ID); i >= 0 {
				return slices.Delete(ids, i, i+1), nil
			}
			return nil, nil
		})
		e.store.Delete(context.WithoutCancel(ctx), watchPrefix+w.ID)
		return nil, err
	}
	w.OwnerSecret = m.Owner
	e.mu.Lock()
	e.watches[w.ID] = w
	e.mu.Unlock()
	return w, nil
}

// Delete removes the watch id, its state and its history: no check of it
// runs after Delete returns (one in flight may still finish, and alert).
func (e *Engine) Delete(ctx context.Context, id string) error {
	if err := e.durable(ctx); err != nil {
		return err
	}
	found := false
	err := e.withIndex(ctx, func(ids []string) ([]string, error) {
		i := slices.Index(ids, id)
		if i < 0 {
			return nil, nil
		}
		found = true
		return slices.Delete(ids, i, i+1), nil
	})
	if err != nil {
		return err
	}
	if !found {
		return &Error{NotFound: true, Msg: fmt.Sprintf("no watch %q", id)}
	}
	gone := e.load(ctx, id)
	e.store.Delete(ctx, watchPrefix+id)
	e.store.Delete(ctx, statePrefix+id)
	if gone != nil {
		// The origin's last body goes with its last watch.
		others := false
		if ws, err := e.sync(ctx); err == nil {
			for _, w := range ws {
				others = others || w.Origin == gone.Origin
			}
			if !others {
				// (Its fetch time stays until it expires, so that
				// making and deleting watches fetches it no more often.)
				e.store.Delete(ctx, bodyPrefix+gone.Origin)
			}
		}
	}
	e.mu.Lock()
	delete(e.watches, id)
	delete(e.next, id)
	delete(e.last, id)
	e.mu.Unlock()
	return e.durable(ctx)
}

// Status is a watch with its state, as GET /v1/watches answers it: the
// secret is never shown, only whether there is one.
type Status struct {
	ID       string   `json:"id"`
	Origin   string   `json:"origin"`
	URLs     []string `json:"urls"`
	Sitemap  string   `json:"sitemap,omitempty"`
	Crawlers []string `json:"crawlers"`
	Asked    []string `json:"asked,omitempty"`
	Every    string   `json:"every"`
	// Webhook is the webhook's origin, "/…" standing for its path and
	// query, which often hold its secret.
	Webhook   string    `json:"webhook,omitempty"`
	HasSecret bool      `json:"secret"`
	Created   time.Time `json:"created"`
	// State is "new" before the first check, else the fetch's state
	// (ok, server-error, gone...).
	State     string     `json:"state"`
	LastCheck *time.Time `json:"last_check,omitempty"`
	NextCheck *time.Time `json:"next_check,omitempty"`
	Checks    int        `json:"checks"`
	// Severity is the severity of the last change found, "" when none
	// was.
	Severity string   `json:"severity,omitempty"`
	Version  *Version `json:"version,omitempty"`
	Error    string   `json:"error,omitempty"`
	// Warnings say what the watch lost when it was made (sitemap <loc>s
	// left out), or that its webhook cannot be read.
	Warnings []string `json:"warnings,omitempty"`
	// History is the watch's events, newest first (GET of one watch
	// only).
	History []Event `json:"history,omitempty"`
}

// Get returns the watch id with its state and history. Its error for an
// unknown id is an *Error with NotFound.
func (e *Engine) Get(ctx context.Context, id string) (*Status, error) {
	w := e.load(ctx, id)
	if w == nil {
		return nil, &Error{NotFound: true, Msg: fmt.Sprintf("no watch %q", id)}
	}
	st := e.loadState(ctx, id)
	s := statusOf(w, st)
	s.History = make([]Event, 0, len(st.History))
	for i := len(st.History) - 1; i >= 0; i-- {
		s.History = append(s.History, st.History[i])
	}
	return s, nil
}

// List returns every watch with its state (without history), oldest
// first.
func (e *Engine) List(ctx context.Context) ([]*Status, error) {
	return e.ListFunc(ctx, nil)
}

// ListFunc is List of the watches keep keeps (nil: all).
func (e *Engine) ListFunc(ctx context.Context, keep func(*Watch) bool) ([]*Status, error) {
	ws, err := e.sync(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]*Status, 0, len(ws))
	for _, w := range ws {
		if keep == nil || keep(w) {
			out = append(out, statusOf(w, e.loadState(ctx, w.ID)))
		}
	}
	return out, nil
}

// Lookup returns the watch id, for its owner to be checked (Watch.OwnedBy);
// its error for an unknown id is an *Error with NotFound.
func (e *Engine) Lookup(ctx context.Context, id string) (*Watch, error) {
	w := e.load(ctx, id)
	if w == nil {
		return nil, &Error{NotFound: true, Msg: fmt.Sprintf("no watch %q", id)}
	}
	return w, nil
}

func statusOf(w *Watch, st *State) *Status {
	s := &Status{ID: w.ID, Origin: w.Origin, URLs: w.URLs, Sitemap: w.Sitemap, Crawlers: w.Crawlers, Asked: w.Asked,
		Every: words.Duration(w.Every), Webhook: redactWebhook(w.Webhook), HasSecret: w.Secret != "", Created: w.Created,
		State: "new", Checks: st.Checks, Severity: st.Severity, Version: st.Version, Error: st.Error,
		Warnings: w.Warnings}
	if w.unreadable != "" {
		s.Warnings = append(slices.Clip(s.Warnings), "webhook: "+w.unreadable)
	}
	if st.Checks > 0 {
		s.State = st.Fetch.State
		t := st.LastCheck
		s.LastCheck = &t
	}
	if !st.NextCheck.IsZero() {
		t := st.NextCheck
		s.NextCheck = &t
	}
	return s
}

// redactWebhook shows a webhook as its origin, and "/…" for the rest:
// the path of many webhooks (chat services') is their secret.
func redactWebhook(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || raw == "" {
		return ""
	}
	out := u.Scheme + "://" + u.Host
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		out += "/…"
	}
	return out
}

// withIndex changes the list of watch ids: f gets it and returns the new
// one (nil: unchanged). Engines sharing a store take the index's lease
// for it.
func (e *Engine) withIndex(ctx context.Context, f func([]string) ([]string, error)) error {
	if e.leaser != nil {
		deadline := time.Now().Add(10 * time.Second)
		for {
			ok, err := e.leaser.Lease(ctx, indexKey, e.owner, 10*time.Second)
			if err != nil {
				return fmt.Errorf("watch: the store: %w", err)
			}
			if ok {
				break
			}
			if time.Now().After(deadline) {
				return errors.New("watch: the list of watches is held by another server: try again")
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(20 * time.Millisecond):
			}
		}
		defer e.leaser.Release(context.WithoutCancel(ctx), indexKey, e.owner)
	} else {
		e.local.Lock()
		defer e.local.Unlock()
	}
	ids, err := e.index(ctx)
	if err != nil {
		return err
	}
	next, err := f(ids)
	if err != nil || next == nil {
		return err
	}
	return e.putJSON(ctx, indexKey, next)
}

// index reads the list of watch ids.
func (e *Engine) index(ctx context.Context) ([]string, error) {
	b, ok, err := e.store.Get(ctx, indexKey)
	if err != nil {
		return nil, fmt.Errorf("watch: reading the watches from the store: %w", err)
	}
	var ids []string
	if ok {
		if err := json.Unmarshal(b, &ids); err != nil {
			return nil, fmt.Errorf("watch: the store's list of watches is damaged: %w", err)
		}
	}
	return ids, nil
}

// sync reads the watches from the store (the ones another engine made or
// deleted too) and returns them, oldest first.
func (e *Engine) sync(ctx context.Context) ([]*Watch, error) {
	ids, err := e.index(ctx)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	known := make(map[string]*Watch, len(e.watches))
	for k, v := range e.watches {
		known[k] = v
	}
	e.mu.Unlock()
	var out []*Watch
	keep := map[string]*Watch{}
	for _, id := range ids {
		w := known[id]
		if w == nil {
			w = e.load(ctx, id)
			if w != nil && w.Sealed == "" && (w.Webhook != "" || w.Secret != "") {
				// Kept in clear by an older server: sealed now.
				if err := e.putWatch(ctx, w); err != nil {
					e.log.Warn("watch: a webhook kept in clear is not sealed yet", "watch", id, "err", err)
				}
			}
		}
		if w != nil {
			keep[id] = w
			out = append(out, w)
		}
	}
	e.mu.Lock()
	e.watches = keep
	for id := range e.next {
		if keep[id] == nil {
			delete(e.next, id)
			delete(e.last, id)
		}
	}
	e.mu.Unlock()
	return out, nil
}

// load reads watch id from the store; nil when there is none.
func (e *Engine) load(ctx context.Context, id string) *Watch {
	b, ok, err := e.store.Get(ctx, watchPrefix+id)
	if err != nil || !ok {
		return nil
	}
	var w Watch
	if json.Unmarshal(b, &w) != nil || w.ID != id {
		return nil
	}
	if w.Sealed != "" {
		if err := e.unseal(&w); err != nil {
			w.unreadable = err.Error()
		}
	}
	return &w
}

func (e *Engine) putJSON(ctx context.Context, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := e.store.Put(ctx, key, b, 0); err != nil {
		return fmt.Errorf("watch: writing to the store: %w", err)
	}
	return nil
}

// Tick checks every watch that is due now, origin by origin (at most
// Concurrency at once), and returns when they are checked: how many
// watches it checked. Alerts go to the outbox, for Run (or Deliver) to
// send. An origin another engine is checking is left to it, and so is one
// whose check, started by Run, is still in flight.
func (e *Engine) Tick(ctx context.Context) (int, error) {
	var wg sync.WaitGroup
	var n atomic.Int64
	err := e.dispatch(ctx, true, &wg, &n)
	wg.Wait()
	if err != nil {
		return int(n.Load()), err
	}
	return int(n.Load()), ctx.Err()
}

// dispatch starts the check of each origin due that is not in flight,
// each in a goroutine of its own, and returns without waiting for them:
// a slow origin holds its own check only. With wait it waits for a free
// slot (Concurrency); without, an origin that finds none waits for the
// next round. wg and n (when not nil) follow the checks it starts.
func (e *Engine) dispatch(ctx context.Context, wait bool, wg *sync.WaitGroup, n *atomic.Int64) error {
	ws, err := e.sync(ctx)
	if err != nil {
		return err
	}
	now := e.opts.Now()
	byOrigin := map[string][]*Watch{}
	due := map[string]bool{}
	e.mu.Lock()
	for _, w := range ws {
		byOrigin[w.Origin] = append(byOrigin[w.Origin], w)
		if n, ok := e.next[w.ID]; !ok || !now.Before(n) {
			due[w.Origin] = true
		}
	}
	e.mu.Unlock()
	origins := make([]string, 0, len(due))
	for o := range due {
		origins = append(origins, o)
	}
	sort.Strings(origins)
	for _, o := range origins {
		if wait {
			select {
			case e.slots <- struct{}{}:
			case <-ctx.Done():
				return ctx.Err()
			}
		} else {
			select {
			case e.slots <- struct{}{}:
			default:
				return nil // every slot busy: the next round
			}
		}
		e.mu.Lock()
		busy := e.checking[o]
		e.checking[o] = true
		e.mu.Unlock()
		if busy {
			<-e.slots
			continue
		}
		e.checks.Add(1)
		if wg != nil {
			wg.Add(1)
		}
		go func() {
			defer e.checks.Done()
			if wg != nil {
				defer wg.Done()
			}
			c := e.checkOrigin(ctx, o, byOrigin[o], now)
			if n != nil {
				n.Add(int64(c))
			}
			e.mu.Lock()
			delete(e.checking, o)
			e.mu.Unlock()
			<-e.slots
		}()
	}
	return nil
}

// Run checks the watches that are due every PollInterval and delivers
// their alerts, until ctx ends; it returns when its goroutines have,
// after at most Options.Drain more of deliveries.
func (e *Engine) Run(ctx context.Context) {
	delivered := make(chan struct{})
	go func() {
		defer close(delivered)
		e.Deliver(ctx)
	}()
	t := time.NewTicker(e.opts.PollInterval)
	defer t.Stop()
	for {
		if err := e.dispatch(ctx, false, nil, nil); err != nil && ctx.Err() == nil {
			e.log.Warn("watch: checking", "err", err)
		}
		select {
		case <-ctx.Done():
			e.checks.Wait()
			<-delivered
			return
		case <-t.C:
		}
	}
}

// checkLeaseTTL bounds how long an origin's check holds its lease: a
// fetch (15 s by default) and the questions, with room to spare. An engine
// that dies in a check holds the origin no longer.
const checkLeaseTTL = 2 * time.Minute

// originRecord is when an origin was last fetched for its watches.
type originRecord struct {
	FetchedAt time.Time `json:"fetched_at"`
}

// checkOrigin checks the watches of one origin, with one fetch, unless
// another engine holds the origin's lease, or none is due once their
// states are read again (another engine checked them). It returns how
// many watches it checked.
func (e *Engine) checkOrigin(ctx context.Context, origin string, ws []*Watch, now time.Time) int {
	if e.leaser != nil {
		ok, err := e.leaser.Lease(ctx, leasePrefix+origin, e.owner, checkLeaseTTL)
		if err != nil {
			e.log.Warn("watch: lease", "origin", origin, "err", err)
			return 0
		}
		if !ok {
			return 0 // another engine checks it
		}
		defer e.leaser.Release(context.WithoutCancel(ctx), leasePrefix+origin, e.owner)
	}
	states := make([]*State, len(ws))
	before := make([]string, len(ws))
	anyDue := false
	for i, w := range ws {
		states[i] = e.loadState(ctx, w.ID)
		// The check that found a change, and the state it started from,
		// make its delivery id: the same change found again later (a
		// file that goes back and forth) is another alert.
		before[i] = fmt.Sprintf("%d %d %s", states[i].Checks, states[i].LastCheck.UnixNano(), digest(states[i]))
		if !now.Before(states[i].NextCheck) {
			anyDue = true
		}
	}
	var rec originRecord
	if b, ok, err := e.store.Get(ctx, originKey+origin); err == nil && ok {
		json.Unmarshal(b, &rec)
	}
	if anyDue && !rec.FetchedAt.IsZero() && now.Before(rec.FetchedAt.Add(e.opts.MinInterval)) {
		// Fetched for another watch of the origin a moment ago: the
		// due ones wait for the interval's end.
		anyDue = false
		for i := range states {
			if !now.Before(states[i].NextCheck) {
				states[i].NextCheck = rec.FetchedAt.Add(e.opts.MinInterval)
			}
		}
	}
	if !anyDue {
		e.mu.Lock()
		for i, w := range ws {
			e.next[w.ID] = states[i].NextCheck
		}
		e.mu.Unlock()
		return 0
	}
	body, info, err := e.opts.Fetch(ctx, origin)
	e.metrics.fetches.Inc()
	rec.FetchedAt = now
	if b, err := json.Marshal(&rec); err == nil {
		e.store.Put(ctx, originKey+origin, b, 2*e.opts.MinInterval)
	}
	var prevBody []byte
	if err == nil {
		if b, ok, err := e.store.Get(ctx, bodyPrefix+origin); err == nil && ok {
			prevBody = b
		}
		if info.Policy == "rules" && info.Error == "" {
			e.store.Put(ctx, bodyPrefix+origin, body, 0)
		}
	}
	checked := 0
	for i, w := range ws {
		if ctx.Err() != nil {
			break
		}
		st := states[i]
		var a *Alert
		if err != nil {
			st.Error = err.Error()
			st.LastCheck = now
			st.NextCheck = now.Add(e.opts.Jitter(w.Every))
		} else {
			a = e.evaluate(w, st, body, prevBody, info, now)
		}
		// The watch may have been deleted while it was checked: its
		// state is not written back then, nor its alert sent.
		if e.load(ctx, w.ID) == nil {
			continue
		}
		baseline := a != nil && a.Severity == ""
		if a != nil {
			st.History = append(st.History, eventOf(a, baseline))
			if n := len(st.History) - e.opts.MaxHistory; n > 0 {
				st.History = slices.Delete(st.History, 0, n)
			}
		}
		var ent *outboxEntry
		ops := make([]store.Op, 0, 2)
		if a != nil && !baseline {
			var op *store.Op
			var err error
			ent, op, err = e.outboxOp(w, a, deliveryID(w.ID, before[i], digest(st)), now.UnixNano())
			if err != nil {
				e.log.Warn("watch: alert not encoded", "watch", w.ID, "err", err)
			} else if op != nil {
				ops = append(ops, *op)
			}
		}
		b, err := json.Marshal(st)
		if err == nil {
			ops = append(ops, store.Op{Key: statePrefix + w.ID, Value: b})
			err = e.apply(ctx, ops)
		}
		if err != nil {
			e.log.Warn("watch: state not written", "watch", w.ID, "err", err)
			continue // not alerted either: the next check finds the change again
		}
		checked++
		e.metrics.checks.Inc()
		if a != nil && !baseline {
			e.metrics.changes.WithLabelValues(a.Severity).Inc()
			if ent != nil {
				e.queue(ent, webhookHost(w.Webhook))
			}
		}
		e.mu.Lock()
		e.next[w.ID] = st.NextCheck
		e.last[w.ID] = now
		e.mu.Unlock()
	}
	return checked
}

// loadState reads the state of watch id: an empty one when there is
// none.
func (e *Engine) loadState(ctx context.Context, id string) *State {
	st := &State{}
	if b, ok, err := e.store.Get(ctx, statePrefix+id); err == nil && ok {
		if json.Unmarshal(b, st) != nil {
			st = &State{}
		}
	}
	return st
}

// apply writes ops in one transaction when the store can; otherwise one
// by one, in order (the outbox's alert first, then the state: a crash
// between sends the alert again at the next check, with the same
// delivery id, rather than losing it).
func (e *Engine) apply(ctx context.Context, ops []store.Op) error {
	if b, ok := e.store.(store.Batcher); ok {
		err := b.Apply(ctx, ops)
		if !errors.Is(err, store.ErrNoBatch) {
			if err != nil {
				return fmt.Errorf("watch: writing to the store: %w", err)
			}
			return nil
		}
	}
	for _, op := range ops {
		var err error
		if op.Delete {
			err = e.store.Delete(ctx, op.Key)
		} else {
			err = e.store.Put(ctx, op.Key, op.Value, op.TTL)
		}
		if err != nil {
			return fmt.Errorf("watch: writing to the store: %w", err)
		}
	}
	return nil
}

// digest is what a state says the file and the verdicts are, hashed: two
// servers that find the same change from the same state make the same
// delivery id of it.
func digest(st *State) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", st.Fetch.State)
	if st.Version != nil {
		fmt.Fprintf(h, "%s\x00", st.Version.Hash)
	}
	for _, r := range st.Verdicts {
		fmt.Fprintf(h, "%s\x00%s\x00%t\x00", r.URL, r.Crawler, r.Allowed)
	}
	return hex.EncodeToString(h.Sum(nil))
}
