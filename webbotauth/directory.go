package webbotauth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	neturl "net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dunglas/httpsfv"

	"github.com/seed53c283f5/robotstxt/store"
)

// Defaults of DirectoryOptions.
const (
	DefaultFetchTimeout  = 5 * time.Second
	DefaultMaxBytes      = 64 << 10
	DefaultMaxKeys       = 32
	DefaultMinTTL        = time.Minute
	DefaultTTL           = time.Hour
	DefaultMaxTTL        = 24 * time.Hour
	DefaultStaleIfError  = 24 * time.Hour
	DefaultRateWindow    = time.Minute
	DefaultMaxDirs       = 10000
	DefaultMaxConcurrent = 8
	DefaultMaxPerOrigin  = 8
	DefaultMaxPending    = 256
)

// DirectoryOptions configure Directories. Zero fields take the defaults.
type DirectoryOptions struct {
	// Client fetches. The service passes its SSRF-guarded client (one
	// whose dialer refuses private and loopback addresses); the CLI may
	// reach loopback. nil: a client of its own. Its redirect policy is
	// replaced: no redirect is ever followed (the draft says MUST NOT).
	Client *http.Client
	// Timeout bounds each fetch, all of it (DefaultFetchTimeout).
	Timeout time.Duration
	// MaxBytes bounds a response body, after content decoding
	// (DefaultMaxBytes).
	MaxBytes int64
	// MaxKeys bounds the keys of one directory (DefaultMaxKeys).
	MaxKeys int
	// MinTTL, DefaultTTL and MaxTTL bound how long a copy is fresh: the
	// response's max-age (or Expires) clamped to [MinTTL, MaxTTL],
	// DefaultTTL when it says neither; no-store and no-cache count as
	// MinTTL, so that they cannot make every request a fetch.
	MinTTL, TTL, MaxTTL time.Duration
	// StaleIfError is how long past its freshness a copy keeps being used
	// while the directory cannot be fetched (the response's
	// stale-if-error when longer). A failed fetch never evicts a copy.
	StaleIfError time.Duration
	// RateWindow is the least time between two fetches of one directory:
	// however many requests name it, a directory costs at most one fetch
	// a window (DefaultRateWindow). Failures are remembered for the window.
	RateWindow time.Duration
	// MaxDirectories bounds the directories remembered; past it the least
	// recently used is forgotten (DefaultMaxDirs).
	MaxDirectories int
	// MaxConcurrent bounds the fetches under way at once, over all
	// directories (DefaultMaxConcurrent).
	MaxConcurrent int
	// MaxPerOrigin bounds the fetches sent to one origin (scheme, host and
	// port) per rate window, over all the directories on it: signatures
	// naming many jwks_uri paths of one host cannot turn the verifier into
	// a flood against that host (DefaultMaxPerOrigin).
	MaxPerOrigin int
	// MaxPending bounds the directories being fetched (or waiting for a
	// fetch slot) at once: past it, a signature naming a directory not
	// cached is Unverified at once, nothing fetched (DefaultMaxPending).
	// A caller whose context ends stops waiting; the fetch goes on, and
	// its copy serves the next request.
	MaxPending int
	// Store, when set, keeps each directory's copy and last fetch (key
	// "wbadir " and the agent's identifier, the copy bounded by MaxBytes,
	// for its freshness and stale-if-error) for a fleet: a process reads
	// it before fetching, and on a store with leases (store.Leaser) holds
	// the directory's lease while it fetches, so that one process of the
	// fleet fetches a directory at a time, once per rate window.
	Store store.Store
	// AllowHTTP admits http:// directories (tests; a test server). The
	// draft requires https.
	AllowHTTP bool
	// UserAgent is sent with each fetch.
	UserAgent string
	// Now is the clock (time.Now).
	Now func() time.Time
}

// Directories fetches and caches key directories. It is safe for
// concurrent use.
type Directories struct {
	o      DirectoryOptions
	owner  string // the name of this process's leases
	client *http.Client
	sem    chan struct{}

	mu      sync.Mutex
	entries map[string]*dirEntry
	fetches int // fetches made, for tests
	origins map[string]*originBudget
	flights map[string]*dirFlight // directories being fetched
}

// dirFlight is a fetch under way: done closes when its outcome is in the
// entry.
type dirFlight struct{ done chan struct{} }

type dirEntry struct {
	keys        *KeySet
	raw         []byte // the key set's bytes (kept in the fleet's store)
	info        DirInfo
	fresh       time.Time // fresh until
	staleUntil  time.Time // usable on errors until
	etag        string
	lastMod     string
	lastAttempt time.Time
	lastErr     error
	used        time.Time
	fetching    bool          // a fetch is under way: join it
	ttl         time.Duration // the lifetime of the copy
}

// DirInfo is what a fetch of a directory found, beyond its keys.
type DirInfo struct {
	// URL is the URL fetched.
	URL string `json:"url"`
	// Fetched is when the copy in use was fetched or last revalidated.
	Fetched time.Time `json:"fetched,omitzero"`
	// Stale reports a copy used past its freshness because a fetch failed.
	Stale bool `json:"stale,omitempty"`
	// SelfSignature is the directory's own signature: "valid", "absent",
	// or "invalid: why" (keys are used either way; the draft makes the
	// proof optional for a directory the verifier resolved itself).
	SelfSignature string `json:"self_signature,omitempty"`
}

// DiscoveryError is a directory that could not be resolved: not evidence
// about the signer (the outcome is Unverified).
type DiscoveryError struct {
	URL    string
	Reason string
	// Pending is set when the directory was still being fetched when the
	// caller stopped waiting: the fetch goes on, and a later call may
	// have its keys.
	Pending bool
}

// Error says which directory and why.
func (e *DiscoveryError) Error() string { return "directory " + e.URL + ": " + e.Reason }

// NewDirectories returns a directory client with options o.
func NewDirectories(o DirectoryOptions) *Directories {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.Timeout, DefaultFetchTimeout)
	def(&o.MinTTL, DefaultMinTTL)
	def(&o.TTL, DefaultTTL)
	def(&o.MaxTTL, DefaultMaxTTL)
	def(&o.StaleIfError, DefaultStaleIfError)
	def(&o.RateWindow, DefaultRateWindow)
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxKeys <= 0 {
		o.MaxKeys = DefaultMaxKeys
	}
	if o.MaxDirectories <= 0 {
		o.MaxDirectories = DefaultMaxDirs
	}
	if o.MaxConcurrent <= 0 {
		o.MaxConcurrent = DefaultMaxConcurrent
	}
	if o.MaxPerOrigin <= 0 {
		o.MaxPerOrigin = DefaultMaxPerOrigin
	}
	if o.MaxPending <= 0 {
		o.MaxPending = DefaultMaxPending
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	var c http.Client
	if o.Client != nil {
		c = *o.Client
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	var id [8]byte
	_, _ = rand.Read(id[:])
	return &Directories{
		o:       o,
		owner:   "wbadir-" + hex.EncodeToString(id[:]),
		client:  &c,
		sem:     make(chan struct{}, o.MaxConcurrent),
		entries: map[string]*dirEntry{},
		origins: map[string]*originBudget{},
		flights: map[string]*dirFlight{},
	}
}

// originBudget counts the fetches sent to one origin in its window.
type originBudget struct {
	start time.Time
	n     int
}

// takeOrigin spends one fetch of rawURL's origin's budget; false when the
// window's budget is spent.
func (d *Directories) takeOrigin(rawURL string) bool {
	u, err := neturl.Parse(rawURL)
	if err != nil {
		return false
	}
	origin := strings.ToLower(u.Scheme + "://" + u.Host)
	now := d.o.Now()
	d.mu.Lock()
	defer d.mu.Unlock()
	b := d.origins[origin]
	if b == nil || now.Sub(b.start) >= d.o.RateWindow {
		if b == nil && len(d.origins) >= d.o.MaxDirectories {
			for k, ob := range d.origins {
				if now.Sub(ob.start) >= d.o.RateWindow {
					delete(d.origins, k)
				}
			}
			if len(d.origins) >= d.o.MaxDirectories {
				return false
			}
		}
		b = &originBudget{start: now}
		d.origins[origin] = b
	}
	if b.n >= d.o.MaxPerOrigin {
		return false
	}
	b.n++
	return true
}

// Fetches returns how many fetches d has made (each directory request
// sent, conditional or not).
func (d *Directories) Fetches() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.fetches
}

// Keys returns the keys of agent a's directory, from the cache when the
// copy is fresh. keyid is the key the caller looks for: a fresh copy that
// lacks it is fetched again (a key just added), at most once a rate
// window. An error is a *DiscoveryError.
func (d *Directories) Keys(ctx context.Context, a Agent, keyid string) (*KeySet, DirInfo, error) {
	now := d.o.Now()
	d.mu.Lock()
	e := d.entries[a.ID]
	if e != nil && !e.fetching {
		e.used = now
		if e.keys != nil && now.Before(e.fresh) && (e.keys.Find(keyid) != nil || now.Sub(e.lastAttempt) < d.o.RateWindow) {
			ks, info := e.keys, e.info
			d.mu.Unlock()
			return ks, info, nil
		}
		if now.Sub(e.lastAttempt) < d.o.RateWindow {
			ks, info, err := e.usable(now)
			d.mu.Unlock()
			return ks, info, err
		}
	}
	// One fetch per directory at a time: join the one under way, or
	// start one unless MaxPending are under way. The fetch outlives the
	// caller that started it (others may wait on it, and its outcome is
	// cached): it is bounded by Timeout instead.
	f := d.flights[a.ID]
	if f == nil {
		if len(d.flights) >= d.o.MaxPending {
			d.mu.Unlock()
			return nil, DirInfo{URL: a.Fetch}, &DiscoveryError{URL: a.Fetch, Reason: fmt.Sprintf("%d directory fetches under way, the most allowed; not fetched", d.o.MaxPending)}
		}
		f = &dirFlight{done: make(chan struct{})}
		d.flights[a.ID] = f
		fctx := context.WithoutCancel(ctx)
		go func() {
			d.refresh(fctx, a, keyid)
			d.mu.Lock()
			delete(d.flights, a.ID)
			d.mu.Unlock()
			close(f.done)
		}()
	}
	d.mu.Unlock()
	select {
	case <-f.done:
	case <-ctx.Done():
		return nil, DirInfo{URL: a.Fetch}, &DiscoveryError{URL: a.Fetch, Reason: "still being fetched when the caller stopped waiting (" + ctx.Err().Error() + ")", Pending: true}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	e = d.entries[a.ID]
	if e == nil {
		return nil, DirInfo{URL: a.Fetch}, &DiscoveryError{URL: a.Fetch, Reason: "not fetched"}
	}
	return e.usable(d.o.Now())
}

// usable returns the entry's keys when they may be used at now: fresh, or
// stale within stale-if-error (after a failed fetch, or while the rate
// window holds the next fetch back). Called with d.mu held.
func (e *dirEntry) usable(now time.Time) (*KeySet, DirInfo, error) {
	if e.keys != nil && now.Before(e.staleUntil) {
		info := e.info
		info.Stale = !now.Before(e.fresh)
		return e.keys, info, nil
	}
	if e.lastErr != nil {
		return nil, e.info, e.lastErr
	}
	return nil, e.info, &DiscoveryError{URL: e.info.URL, Reason: "copy expired"}
}

// refresh fetches a's directory once and records the outcome.
func (d *Directories) refresh(ctx context.Context, a Agent, keyid string) {
	now := d.o.Now()
	d.mu.Lock()
	e := d.entries[a.ID]
	if e == nil {
		d.evictLocked()
		e = &dirEntry{info: DirInfo{URL: a.Fetch}, used: now}
		d.entries[a.ID] = e
	} else if now.Sub(e.lastAttempt) < d.o.RateWindow {
		d.mu.Unlock() // fetched by the flight before this one
		return
	}
	e.fetching = true
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		e.fetching = false
		d.mu.Unlock()
	}()

	if d.o.Store != nil {
		settled, release := d.fleet(ctx, a, keyid)
		if release != nil {
			defer release()
		}
		if settled {
			return
		}
	}

	now = d.o.Now()
	d.mu.Lock()
	e.lastAttempt = now
	etag, lastMod, have := e.etag, e.lastMod, e.keys != nil
	d.fetches++
	d.mu.Unlock()

	res, err := d.resolve(ctx, a, etag, lastMod, have)

	d.mu.Lock()
	if err != nil {
		e.lastErr = err
	} else {
		e.lastErr = nil
		if !res.notModified {
			e.keys, e.raw = res.keys, res.raw
			e.info.SelfSignature = res.selfSig
			e.etag, e.lastMod = res.etag, res.lastMod
		}
		e.info.Fetched = now
		if res.ttl == 0 {
			res.ttl = e.ttl
		}
		e.ttl = res.ttl
		e.fresh = now.Add(res.ttl)
		e.staleUntil = e.fresh.Add(max(d.o.StaleIfError, res.staleIfError))
	}
	rec := e.record(a)
	d.mu.Unlock()
	if d.o.Store != nil {
		d.save(ctx, rec)
	}
}

// dirRecord is a directory's copy and last fetch as kept in the fleet's
// store (key "wbadir " and the agent's identifier): every process of a
// fleet reads it before fetching, so that a directory is fetched once per
// rate window and freshness, whichever process asks.
type dirRecord struct {
	ID         string        `json:"id"`
	URL        string        `json:"url"`
	Keys       []byte        `json:"keys,omitempty"` // the key set, at most MaxBytes
	SelfSig    string        `json:"self_signature,omitempty"`
	ETag       string        `json:"etag,omitempty"`
	LastMod    string        `json:"last_modified,omitempty"`
	Fetched    time.Time     `json:"fetched,omitzero"`
	Fresh      time.Time     `json:"fresh,omitzero"`
	StaleUntil time.Time     `json:"stale_until,omitzero"`
	TTL        time.Duration `json:"ttl,omitempty"`
	Attempt    time.Time     `json:"attempt"`
	Err        string        `json:"error,omitempty"` // the last attempt's failure
}

// storeKey is the store key (and lease) of a directory.
func storeKey(id string) string { return "wbadir " + id }

// record is e as kept in the store. Called with d.mu held.
func (e *dirEntry) record(a Agent) *dirRecord {
	r := &dirRecord{ID: a.ID, URL: e.info.URL, SelfSig: e.info.SelfSignature, ETag: e.etag, LastMod: e.lastMod,
		Fetched: e.info.Fetched, Fresh: e.fresh, StaleUntil: e.staleUntil, TTL: e.ttl, Attempt: e.lastAttempt}
	if e.keys != nil {
		r.Keys = e.raw
	}
	if e.lastErr != nil {
		r.Err = e.lastErr.Error()
		var de *DiscoveryError
		if errors.As(e.lastErr, &de) {
			r.Err = de.Reason
		}
	}
	return r
}

// save puts r in the store for as long as it may serve (its stale-if-error
// end), and at least a rate window (a failure is remembered as long).
func (d *Directories) save(ctx context.Context, r *dirRecord) {
	if int64(len(r.Keys)) > d.o.MaxBytes {
		r.Keys = nil
	}
	b, err := json.Marshal(r)
	if err != nil {
		return
	}
	ttl := max(r.StaleUntil.Sub(d.o.Now()), d.o.RateWindow)
	_ = d.o.Store.Put(context.WithoutCancel(ctx), storeKey(r.ID), b, ttl)
}

// load reads a's record from the store; nil when none (or unreadable).
func (d *Directories) load(ctx context.Context, a Agent) *dirRecord {
	b, ok, err := d.o.Store.Get(ctx, storeKey(a.ID))
	if err != nil || !ok || int64(len(b)) > 2*d.o.MaxBytes+4096 {
		return nil
	}
	var r dirRecord
	if json.Unmarshal(b, &r) != nil || r.ID != a.ID {
		return nil
	}
	return &r
}

// settles reports whether the fleet's record r makes a fetch needless at
// now: another process tried within the rate window (whatever came of
// it), or its copy is fresh and holds keyid.
func (d *Directories) settles(r *dirRecord, keyid string, now time.Time) bool {
	if now.Sub(r.Attempt) < d.o.RateWindow {
		return true
	}
	if len(r.Keys) == 0 || !now.Before(r.Fresh) {
		return false
	}
	ks, err := ParseKeySet(r.Keys, d.o.MaxKeys)
	return err == nil && ks.Find(keyid) != nil
}

// adopt makes r a's entry: the copy another process fetched. It reports
// false when r cannot be read (then a's directory is fetched).
func (d *Directories) adopt(a Agent, r *dirRecord) bool {
	var ks *KeySet
	if len(r.Keys) > 0 {
		k, err := ParseKeySet(r.Keys, d.o.MaxKeys)
		if err != nil {
			return false
		}
		ks = k
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	e := d.entries[a.ID]
	if e == nil || !r.Attempt.After(e.lastAttempt) && !r.Fetched.After(e.info.Fetched) {
		return true // ours is as new
	}
	if ks != nil && r.Fetched.After(e.info.Fetched) {
		e.keys, e.raw = ks, r.Keys
		e.info.Fetched, e.info.SelfSignature = r.Fetched, r.SelfSig
		e.etag, e.lastMod = r.ETag, r.LastMod
		e.fresh, e.staleUntil, e.ttl = r.Fresh, r.StaleUntil, r.TTL
	}
	e.lastAttempt = r.Attempt
	e.lastErr = nil
	if r.Err != "" {
		e.lastErr = &DiscoveryError{URL: r.URL, Reason: r.Err}
	}
	return true
}

// fleet consults the store before a fetch of a: settled when the fleet's
// copy (or its last attempt) serves, adopted into the entry. On a store
// with leases, this process takes the directory's lease before it
// fetches (release gives it back); while another process holds it, the
// fetch is that process's, and its record is awaited (at most the lease's
// life, then this process fetches).
func (d *Directories) fleet(ctx context.Context, a Agent, keyid string) (settled bool, release func()) {
	if r := d.load(ctx, a); r != nil && d.settles(r, keyid, d.o.Now()) && d.adopt(a, r) {
		return true, nil
	}
	ls, ok := d.o.Store.(store.Leaser)
	if !ok {
		return false, nil
	}
	key := storeKey(a.ID)
	ttl := d.o.Timeout + 5*time.Second
	end := time.Now().Add(ttl)
	wait := 10 * time.Millisecond
	for {
		got, err := ls.Lease(ctx, key, d.owner, ttl)
		if err != nil {
			return false, nil // the store is failing: fetch
		}
		if got {
			release = func() { _ = ls.Release(context.WithoutCancel(ctx), key, d.owner) }
			// The last holder may have just stored its copy.
			if r := d.load(ctx, a); r != nil && d.settles(r, keyid, d.o.Now()) && d.adopt(a, r) {
				return true, release
			}
			return false, release
		}
		if r := d.load(ctx, a); r != nil && d.settles(r, keyid, d.o.Now()) && d.adopt(a, r) {
			return true, nil
		}
		if time.Now().After(end) {
			return false, nil
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return false, nil
		case <-t.C:
		}
		wait = min(2*wait, 250*time.Millisecond)
	}
}

// evictLocked forgets the least recently used directory when the cache is
// full. Called with d.mu held.
func (d *Directories) evictLocked() {
	if len(d.entries) < d.o.MaxDirectories {
		return
	}
	var oldest string
	var t time.Time
	for id, e := range d.entries {
		if oldest == "" || e.used.Before(t) {
			oldest, t = id, e.used
		}
	}
	delete(d.entries, oldest)
}

type resolved struct {
	keys              *KeySet
	raw               []byte // the key set's bytes, as read
	selfSig           string
	etag, lastMod     string
	ttl, staleIfError time.Duration
	notModified       bool
}

// fetched is one response, read within the limits.
type fetched struct {
	url    string
	status int
	header http.Header
	body   []byte
	req    *http.Request
}

// get fetches url once: no redirect followed, the body bounded. An error
// is a *DiscoveryError; a status other than 200 (and 304 when
// conditional) is one too.
func (d *Directories) get(ctx context.Context, url, accept, etag, lastMod string) (*fetched, error) {
	fail := func(format string, a ...any) error {
		return &DiscoveryError{URL: url, Reason: fmt.Sprintf(format, a...)}
	}
	if !d.takeOrigin(url) {
		return nil, fail("over %d fetches to its origin in %s; not fetched", d.o.MaxPerOrigin, d.o.RateWindow)
	}
	select {
	case d.sem <- struct{}{}:
		defer func() { <-d.sem }()
	case <-ctx.Done():
		return nil, fail("%v", ctx.Err())
	}
	ctx, cancel := context.WithTimeout(ctx, d.o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fail("%v", err)
	}
	req.Header.Set("Accept", accept)
	if d.o.UserAgent != "" {
		req.Header.Set("User-Agent", d.o.UserAgent)
	}
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	if lastMod != "" {
		req.Header.Set("If-Modified-Since", lastMod)
	}
	resp, err := d.client.Do(req)
	if err != nil {
		var ue *neturl.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is said once, by DiscoveryError
		}
		return nil, fail("%v", err)
	}
	defer resp.Body.Close()
	f := &fetched{url: url, status: resp.StatusCode, header: resp.Header, req: req}
	switch {
	case resp.StatusCode == http.StatusNotModified && (etag != "" || lastMod != ""):
		return f, nil
	case resp.StatusCode >= 300 && resp.StatusCode < 400 && resp.StatusCode != http.StatusNotModified:
		return f, fail("HTTP %d redirect to %q, not followed (the draft forbids following redirects)", resp.StatusCode, resp.Header.Get("Location"))
	case resp.StatusCode != http.StatusOK:
		return f, fail("HTTP %d, not 200", resp.StatusCode)
	}
	if resp.ContentLength > d.o.MaxBytes {
		return f, fail("body of %d bytes, over the limit of %d", resp.ContentLength, d.o.MaxBytes)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, d.o.MaxBytes+1))
	if err != nil {
		return f, fail("reading the body: %v", err)
	}
	if int64(len(body)) > d.o.MaxBytes {
		return f, fail("body over the limit of %d bytes", d.o.MaxBytes)
	}
	f.body = body
	return f, nil
}

const acceptKeys = DirectoryMediaType + ", application/jwk-set+json;q=0.9, application/json;q=0.8"

// jsonMediaType reports whether a Content-Type is one a key set may come
// as: the directory type, application/jwk-set+json or application/json
// (the verifier is lenient; Lint is not).
func jsonMediaType(ct string) (string, bool) {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return ct, false
	}
	switch mt {
	case DirectoryMediaType, "application/jwk-set+json", "application/json":
		return mt, true
	}
	return mt, false
}

// resolve fetches and reads the keys a's member points to.
func (d *Directories) resolve(ctx context.Context, a Agent, etag, lastMod string, have bool) (*resolved, error) {
	if !have {
		etag, lastMod = "", ""
	}
	accept := acceptKeys
	if a.Type == TypeCIMD {
		accept = "application/json"
	}
	f, err := d.get(ctx, a.Fetch, accept, etag, lastMod)
	if err != nil {
		return nil, err
	}
	res := &resolved{}
	res.ttl, res.staleIfError = d.freshness(f.header)
	if f.status == http.StatusNotModified {
		res.notModified = true
		if f.header.Get("Cache-Control") == "" && f.header.Get("Expires") == "" {
			res.ttl = 0 // the stored response's lifetime stands (RFC 9111 §4.3.4)
		}
		return res, nil
	}
	res.etag, res.lastMod = f.header.Get("ETag"), f.header.Get("Last-Modified")
	if mt, ok := jsonMediaType(f.header.Get("Content-Type")); !ok {
		return nil, &DiscoveryError{URL: f.url, Reason: fmt.Sprintf("media type %q is not JSON", mt)}
	}
	body := f.body
	if a.Type == TypeCIMD {
		if body, err = d.cimdKeys(ctx, a, body); err != nil {
			return nil, err
		}
	}
	ks, err := ParseKeySet(body, d.o.MaxKeys)
	if err != nil {
		return nil, &DiscoveryError{URL: f.url, Reason: err.Error()}
	}
	res.keys = ks
	res.raw = body
	res.selfSig = SelfSignature(f, ks, d.o.Now())
	return res, nil
}

// cimdKeys returns the JWK Set a Client ID Metadata Document provides: its
// "jwks" member, or the set at its "jwks_uri" (fetched by the same rules).
func (d *Directories) cimdKeys(ctx context.Context, a Agent, body []byte) ([]byte, error) {
	var doc struct {
		ClientID string          `json:"client_id"`
		JWKS     json.RawMessage `json:"jwks"`
		JWKSURI  string          `json:"jwks_uri"`
	}
	fail := func(format string, args ...any) error {
		return &DiscoveryError{URL: a.Fetch, Reason: fmt.Sprintf(format, args...)}
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fail("client metadata is not JSON: %v", err)
	}
	if doc.ClientID != a.Value {
		return nil, fail("client_id %q is not the URL fetched", doc.ClientID)
	}
	switch {
	case len(doc.JWKS) > 0 && doc.JWKSURI != "":
		return nil, fail("client metadata has both jwks and jwks_uri")
	case len(doc.JWKS) > 0:
		return doc.JWKS, nil
	case doc.JWKSURI != "":
		it := httpsfv.NewItem(doc.JWKSURI)
		it.Params.Add("type", httpsfv.Token(TypeJWKSURI))
		sub, err := ParseAgentValue(a.Member, it, d.o.AllowHTTP)
		if err != nil {
			return nil, fail("jwks_uri: %v", err)
		}
		f, err := d.get(ctx, sub.Fetch, acceptKeys, "", "")
		if err != nil {
			return nil, err
		}
		return f.body, nil
	}
	return nil, fail("client metadata has neither jwks nor jwks_uri")
}

// freshness reads how long a response stays fresh and how long past that
// it may serve on errors, from Cache-Control (max-age, no-store, no-cache,
// stale-if-error) and Expires, clamped to the options' bounds.
func (d *Directories) freshness(h http.Header) (ttl, staleIfError time.Duration) {
	ttl = -1
	for _, v := range h.Values("Cache-Control") {
		for dir := range strings.SplitSeq(v, ",") {
			name, val, _ := strings.Cut(strings.TrimSpace(dir), "=")
			name = strings.ToLower(name)
			n, err := strconv.ParseInt(strings.Trim(val, `"`), 10, 64)
			switch {
			case name == "no-store" || name == "no-cache":
				ttl = 0
			case name == "max-age" && err == nil && ttl != 0:
				ttl = time.Duration(min(n, 1<<32)) * time.Second
			case name == "stale-if-error" && err == nil:
				staleIfError = time.Duration(min(n, 1<<32)) * time.Second
			}
		}
	}
	if ttl < 0 {
		if exp, err := http.ParseTime(h.Get("Expires")); err == nil {
			date, err := http.ParseTime(h.Get("Date"))
			if err != nil {
				date = d.o.Now()
			}
			ttl = max(exp.Sub(date), 0)
		}
	}
	switch {
	case ttl < 0:
		ttl = d.o.TTL
	case ttl < d.o.MinTTL:
		ttl = d.o.MinTTL
	case ttl > d.o.MaxTTL:
		ttl = d.o.MaxTTL
	}
	return ttl, min(staleIfError, d.o.MaxTTL)
}

// DirectoryTag is the tag of a directory's signature over its own
// response (the draft's possession proof).
const DirectoryTag = "http-message-signatures-directory"

// SelfSignature checks the signatures a directory response carries over
// itself (tag "http-message-signatures-directory", covering
// "@authority";req and content-digest): "absent" when there is none,
// "valid" when each verifies with a key of the set and Content-Digest
// matches the body, else "invalid: why".
func SelfSignature(f *fetched, ks *KeySet, now time.Time) string {
	sigs, err := ParseSignatures(f.header)
	if err != nil {
		return "invalid: " + err.Error()
	}
	req := FromRequest(f.req, "")
	m := &Message{Header: f.header, Request: req}
	n := 0
	for _, s := range sigs {
		if s.Tag != DirectoryTag {
			continue
		}
		n++
		if s.HasCreated && time.Unix(s.Created, 0).After(now.Add(DefaultSkew)) {
			return "invalid: signature " + s.Label + " is dated in the future"
		}
		if s.HasExpires && time.Unix(s.Expires, 0).Before(now.Add(-DefaultSkew)) {
			return "invalid: signature " + s.Label + " has expired"
		}
		if !coversDigest(s) {
			return "invalid: signature " + s.Label + " does not cover content-digest"
		}
		k := ks.Find(s.KeyID)
		if k == nil {
			return "invalid: signature " + s.Label + "'s keyid is no key of the set"
		}
		if err := VerifySignature(m, s, k); err != nil {
			return "invalid: signature " + s.Label + ": " + err.Error()
		}
	}
	if n == 0 {
		return "absent"
	}
	if err := checkContentDigest(f.header.Get("Content-Digest"), f.body); err != nil {
		return "invalid: " + err.Error()
	}
	return "valid"
}

func coversDigest(s *Signature) bool {
	for _, it := range s.Input.Items {
		if name, _ := it.Value.(string); name == "content-digest" {
			return true
		}
	}
	return false
}

// checkContentDigest checks a Content-Digest field (RFC 9530) against a
// body: every sha-256 and sha-512 member must match, and one must exist.
func checkContentDigest(field string, body []byte) error {
	if field == "" {
		return errors.New("no Content-Digest")
	}
	d, err := httpsfv.UnmarshalDictionary([]string{field})
	if err != nil {
		return fmt.Errorf("Content-Digest is not a dictionary: %v", err)
	}
	checked := 0
	for _, alg := range d.Names() {
		m, _ := d.Get(alg)
		it, ok := m.(httpsfv.Item)
		if !ok {
			continue
		}
		want, ok := it.Value.([]byte)
		if !ok {
			continue
		}
		var got []byte
		switch alg {
		case "sha-256":
			h := sha256.Sum256(body)
			got = h[:]
		case "sha-512":
			h := sha512.Sum512(body)
			got = h[:]
		default:
			continue
		}
		if subtle.ConstantTimeCompare(got, want) != 1 {
			return fmt.Errorf("Content-Digest %s does not match the body", alg)
		}
		checked++
	}
	if checked == 0 {
		return errors.New("Content-Digest has no sha-256 or sha-512 member")
	}
	return nil
}
