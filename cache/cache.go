package cache

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"

	"strings"
	"sync/atomic"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/store"
	"golang.org/x/sync/singleflight"
)

// The defaults of Options (docs/protocol.md: Fetching, Caching).
const (
	DefaultTTL       = 24 * time.Hour      // how long a copy is fresh without Cache-Control
	DefaultMinTTL    = time.Minute         // the least time a copy is kept (no-store, no-cache, small max-age)
	DefaultMaxTTL    = 24 * time.Hour      // the most time a copy is fresh (large max-age)
	DefaultRetryMin  = time.Minute         // the first retry after a failure, and after a 503 with no Retry-After
	DefaultRetryMax  = time.Hour           // the backoff doubles up to this
	DefaultGiveUp    = 30 * 24 * time.Hour // with no copy, unreachable this long means allow all
	DefaultRetain    = 30 * 24 * time.Hour // how long the store keeps an entry past its expiry
	DefaultParsedMax = 1024                // parsed files kept in memory
	// DefaultParsedBytes bounds the memory the parsed files kept take:
	// 256 MiB, as robotstxt.Robots.Footprint counts it.
	DefaultParsedBytes = 256 << 20
)

// Options configure a Cache. The zero value (or nil) gives an in-memory store,
// a fetcher with Google's policy, and the defaults above.
type Options struct {
	// Store keeps the entries; nil means store.NewMemory(nil). The cache
	// does not close it.
	Store store.Store
	// Fetcher fetches robots.txt files; nil means a fetch.Fetcher with
	// Google's policy and the cache's clock. Its User-Agent is the default
	// one; a question's context can carry the crawler's
	// (fetch.WithUserAgent), as the polite client's do. Its Dialect is the cache's:
	// it decides what answers mean and how Answer.Allowed reads rules.
	Fetcher *fetch.Fetcher
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// TTL is how long a copy is fresh when the answer has no usable
	// max-age (default 24 h); MinTTL and MaxTTL clamp max-age (default
	// 1 minute and 24 hours); no-store and no-cache give MinTTL.
	TTL, MinTTL, MaxTTL time.Duration
	// RetryMin and RetryMax bound the backoff after a failed fetch: it
	// starts at RetryMin (1 minute) and doubles up to RetryMax (1 hour).
	// A 503 is retried after its Retry-After, or RetryMin.
	RetryMin, RetryMax time.Duration
	// GiveUp is how long an origin with no copy must stay unreachable
	// before everything is allowed (default 30 days; docs/protocol.md, Fetching).
	GiveUp time.Duration
	// Retain is how long the store keeps an entry past its expiry or next
	// retry (default 30 days), so a copy outlives a long outage.
	Retain time.Duration
	// KeyPrefix is put before the origin in store keys, so that caches
	// with different fetch policies can share one store.
	KeyPrefix string
	// ParsedMax bounds how many parsed files are kept in memory (default
	// 1024).
	ParsedMax int
	// ParsedBytes bounds the bytes the parsed files kept in memory take,
	// each weighed by robotstxt.Robots.Footprint (an upper bound of what
	// it keeps, counting what questions compile later): default
	// DefaultParsedBytes. The least recently used are dropped first; a
	// file heavier than the whole bound alone is parsed for each question
	// instead of kept. A hostile 500 KiB file can weigh tens of megabytes,
	// so without a byte bound ParsedMax such files could take gigabytes.
	ParsedBytes int64
	// LeaseTTL is how long the lease on an origin, taken in a store shared
	// by a fleet (one that implements store.Leaser), lasts: a process that
	// dies mid-fetch holds the origin this long at most. Default: the
	// fetcher's timeout plus 5 s. See Cache.
	LeaseTTL time.Duration
	// LeaseOwner names this cache in the leases it takes; default a random
	// name, unique to the cache.
	LeaseOwner string
}

// Source says where an answer came from.
type Source uint8

// The sources of an answer.
const (
	Network    Source = iota + 1 // fetched for this question
	Cached                       // a fresh copy, or a failure waiting for its retry
	StaleCache                   // a copy past its freshness, because its refresh failed
)

// String returns "network", "cache" or "stale-cache".
func (s Source) String() string {
	switch s {
	case Network:
		return "network"
	case Cached:
		return "cache"
	case StaleCache:
		return "stale-cache"
	}
	return fmt.Sprintf("source(%d)", uint8(s))
}

// Cache answers robots.txt questions for any number of origins by the rules
// of docs/protocol.md (Fetching, Caching): copies are kept 24 hours (Cache-Control: max-age clamped
// to [1 minute, 24 hours]); a failed refresh keeps serving the last good copy;
// with no copy an unreachable origin is disallowed, until it has been
// unreachable for 30 days; failed fetches are retried with a backoff, and
// their answer is cached until then. However many goroutines ask about an
// origin, one fetch is made at a time.
//
// When the store is shared by a fleet of processes (it implements
// store.Leaser, as the Redis store behind store.Fallback does, and has no
// method Shared() bool that says false, as a bbolt file's), one fetch is
// made at a time across the fleet: before fetching an origin the cache takes
// the lease on it in the store, for Options.LeaseTTL, and gives it up once
// the result is stored. A process that finds another's lease waits for that
// result, reading the store with a backoff (10 ms doubling to 250 ms), and
// answers with it; when the lease expires first (its holder died mid-fetch)
// it takes the lease and fetches. It never waits more than twice LeaseTTL.
// When the shared store cannot be reached, store.Fallback grants leases
// within the process: each process then fetches on its own, and
// Stats.LocalFetches counts those fetches.
//
// A Cache runs nothing in the background between questions: the one
// goroutine it starts is the fetch of an origin, while it lasts (the
// lease, the fetch, the store write), so that a caller that gives up does
// not cancel it for the others; see the package doc. Entries expire
// lazily when read. It is safe for concurrent use.
type Cache struct {
	store   store.Store
	fetcher *fetch.Fetcher
	dialect robotstxt.Dialect
	now     func() time.Time
	opts    Options
	flight  singleflight.Group
	parsed  *parsedLRU
	stats   counters
	uaErr   error        // the fetcher's User-Agent cannot be sent: every Get fails
	leaser  store.Leaser // nil: the store is not shared
	owner   string
}

// New returns a cache; nil options mean the defaults.
func New(opts *Options) *Cache {
	c := &Cache{}
	if opts != nil {
		c.opts = *opts
	}
	o := &c.opts
	c.now = o.Now
	if c.now == nil {
		c.now = time.Now
	}
	c.store = o.Store
	if c.store == nil {
		c.store = store.NewMemory(nil)
	}
	c.fetcher = o.Fetcher
	if c.fetcher == nil {
		c.fetcher = &fetch.Fetcher{Now: c.now}
	}
	c.uaErr = fetch.CheckUserAgent(c.fetcher.UserAgent)
	c.dialect = c.fetcher.Dialect
	if c.dialect == robotstxt.DefaultDialect {
		c.dialect = robotstxt.Google
	}
	setDefault(&o.TTL, DefaultTTL)
	setDefault(&o.MinTTL, DefaultMinTTL)
	setDefault(&o.MaxTTL, DefaultMaxTTL)
	setDefault(&o.RetryMin, DefaultRetryMin)
	setDefault(&o.RetryMax, DefaultRetryMax)
	setDefault(&o.GiveUp, DefaultGiveUp)
	setDefault(&o.Retain, DefaultRetain)
	if o.MaxTTL < o.MinTTL {
		o.MaxTTL = o.MinTTL
	}
	if o.RetryMax < o.RetryMin {
		o.RetryMax = o.RetryMin
	}
	if o.ParsedMax <= 0 {
		o.ParsedMax = DefaultParsedMax
	}
	if o.ParsedBytes <= 0 {
		o.ParsedBytes = DefaultParsedBytes
	}
	c.parsed = newParsedLRU(o.ParsedMax, o.ParsedBytes)
	c.initLease()
	return c
}

func setDefault(d *time.Duration, def time.Duration) {
	if *d <= 0 {
		*d = def
	}
}

// Dialect returns the dialect whose fetch policy the cache applies and in
// which Answer.Allowed reads rules.
func (c *Cache) Dialect() robotstxt.Dialect { return c.dialect }

// Store returns the cache's store.
func (c *Cache) Store() store.Store { return c.store }

// Answer is what the cache knows about one origin's robots.txt.
type Answer struct {
	Origin  fetch.Origin
	Dialect robotstxt.Dialect
	// Policy says whether Robots applies, or everything is allowed or
	// disallowed.
	Policy fetch.Policy
	// Robots is the parsed file when Policy is fetch.Rules. It is shared:
	// the cache parses a body once and hands the same value to every
	// question until the copy changes.
	Robots *robotstxt.Robots
	Source Source
	// Reason says why Policy applies, in words, with what the last fetch
	// got when it failed.
	Reason string
	// Status is the HTTP status (or FTP reply) of the answer the policy
	// comes from: the copy's, or the failed fetch's.
	Status    int
	Truncated bool // the copy's body was cut at the size limit
	// FetchedAt is when the copy was fetched, or, with no copy, when the
	// last attempt was made.
	FetchedAt time.Time
	// ExpiresAt is when the cache will fetch again: the end of the copy's
	// freshness, or the next retry.
	ExpiresAt time.Time
	// FailingSince is the start of the current failure streak; zero when
	// the last fetch succeeded.
	FailingSince time.Time
	// Trace is the last fetch's requests.
	Trace []fetch.Request
	// Err is the last fetch's error when it got no answer at all (an
	// *fetch.Error). It is information: the policy already accounts for it.
	Err error
}

// Allowed reports whether the crawler with product token agent may fetch
// rawURL under this answer, in the answer's dialect. /robots.txt itself is
// always allowed. rawURL is taken as given (see robotstxt.NormalizeURL).
func (a *Answer) Allowed(agent, rawURL string) bool {
	if a.Policy == fetch.Rules && a.Robots != nil && a.Dialect == robotstxt.Google {
		return a.Robots.Allowed(agent, rawURL) || robotstxt.PathParamsQuery(rawURL) == "/robots.txt"
	}
	return a.Decide(robotstxt.Query{URL: rawURL, Agents: []string{agent}, Dialect: a.Dialect}).Allowed
}

// Decide answers q under this answer: with the file's rules when Policy is
// Rules, else with the policy, whose reason the Decision carries. q is
// read in q.ReadsIn() (its dialect, else its crawler's, else Google's),
// with that dialect's fetch policy where the answer allows it (see
// Decider and For). /robots.txt itself is always allowed.
func (a *Answer) Decide(q robotstxt.Query) robotstxt.Decision {
	return a.Decider(q).Decide(q.URL)
}

// Decider is an Answer's Decide prepared for many URLs (see
// robotstxt.Decider): the group choice is made once, not once a URL.
type Decider struct {
	a     *Answer
	d     robotstxt.Dialect
	rules *robotstxt.Decider // with rules to obey
}

// Decider prepares q for many URLs; q.URL is ignored. d.Decide(url)
// returns what a.Decide with q and that URL returns.
//
// q is read in q.ReadsIn(): its dialect, else its crawler's, else Google's
// (a product token's). The answer it reads is a.For that dialect: an
// answer fetched with Google's policy is read with the fetch policy of
// the question's own dialect, as robotstxt check -u reads it (a 403 allows
// Googlebot and disallows Baiduspider).
func (a *Answer) Decider(q robotstxt.Query) *Decider {
	q.Dialect = q.ReadsIn()
	a = a.For(q.Dialect)
	d := &Decider{a: a, d: q.Dialect}
	if a.Policy == fetch.Rules && a.Robots != nil {
		d.rules = a.Robots.Decider(q)
	}
	return d
}

// Answer returns the answer the decider reads: its question's dialect's
// reading of the cache's answer (Answer.For), whose Policy and Reason
// apply to every URL but /robots.txt when it has no rules.
func (d *Decider) Answer() *Answer { return d.a }

// For returns the answer as crawlers of dialect d read it. The cache
// fetches with one fetch policy, its fetcher's; an answer fetched with
// Google's (the default, which keeps the body of every 2xx answer) says
// what each dialect's fetch policy makes of it, from the status it got
// (fetch.Response.Verdict, the code the fetcher and robotstxt check -u
// decide with): a 401 or 403 disallows everything for baidu and
// original, any answer but 200 OK allows everything for yandex, a 429 is
// a 4xx for rfc9309. A copy served stale after a failed refresh, an
// answer with no HTTP status (unreachable: the same in every dialect),
// one the cache gave up on (allowed after Options.GiveUp) and one
// fetched with another dialect's policy are a itself. The answer is a
// when d reads it as it is; else a copy whose Dialect is d.
func (a *Answer) For(d robotstxt.Dialect) *Answer {
	if d == robotstxt.DefaultDialect {
		d = robotstxt.Google
	}
	if d == a.Dialect || a.Dialect != robotstxt.Google || a.Source == StaleCache || a.Status == 0 || a.Err != nil {
		return a
	}
	r := fetch.Response{Status: a.Status}
	if n := len(a.Trace); n > 0 {
		// Content-Type, and the pay per crawl headers a 402's reason
		// names.
		r.Header = a.Trace[n-1].AnswerHeader()
	}
	if a.Robots != nil {
		r.Size = len(a.Robots.Body())
		if a.Truncated {
			r.Size++ // at least: the fetcher read one byte past its limit
		}
	}
	if r.Verdict(robotstxt.Google).Policy != a.Policy {
		return a // not Google's reading of the status: given up on
	}
	v := r.Verdict(d)
	b := *a
	b.Dialect = d
	if v.Policy != a.Policy {
		b.Policy, b.Reason, b.Robots = v.Policy, v.Reason, nil
	}
	return &b
}

// Usage answers for url with the AI usage preferences of the answer's file
// (robotstxt.Decider.Usage) beside the crawl decision; an answer with no
// file (a fetch policy alone) has none, and nor has /robots.txt itself.
func (d *Decider) Usage(url string) robotstxt.UsageAnswer {
	if d.rules != nil && robotstxt.PathParamsQuery(url) != "/robots.txt" {
		return d.rules.Usage(url)
	}
	dec := d.Decide(url)
	return robotstxt.UsageAnswer{Allowed: dec.Allowed, Line: dec.Line()}
}

// Decide answers for url, as Answer.Decide does.
func (d *Decider) Decide(url string) robotstxt.Decision {
	path := robotstxt.PathParamsQuery(url)
	if path == "/robots.txt" {
		return robotstxt.Decision{Allowed: true, Dialect: d.d, Path: path, Reason: "/robots.txt itself is always allowed to a crawler that fetches it"}
	}
	switch {
	case d.rules != nil:
		return d.rules.Decide(url)
	case d.a.Policy == fetch.DisallowAll:
		return robotstxt.Decision{Allowed: false, Dialect: d.d, Path: path, Reason: d.a.Reason}
	default:
		return robotstxt.Decision{Allowed: true, Dialect: d.d, Path: path, Reason: d.a.Reason}
	}
}

// Allowed reports whether the crawler with product token agent may fetch
// rawURL, fetching the origin's robots.txt if the cache has no fresh answer.
// An unreachable origin is not an error: it is disallowed (or, after 30
// days, allowed). The error is for a URL with no origin or a context done.
func (c *Cache) Allowed(ctx context.Context, agent, rawURL string) (bool, error) {
	a, err := c.Get(ctx, rawURL)
	if err != nil {
		return false, err
	}
	return a.Allowed(agent, rawURL), nil
}

// Get returns the answer for the origin of rawURL (any URL of the site).
//
// A fetch made for it sends the fetcher's User-Agent, or the one ctx
// carries (fetch.WithUserAgent): a crawler that shares a cache asks with
// its own identity, so that a site sees robots.txt fetched by the bot whose
// pages follow. The answer is per origin, not per User-Agent: a fetch
// already under way, or a copy in the store, serves every crawler.
func (c *Cache) Get(ctx context.Context, rawURL string) (*Answer, error) {
	o, err := fetch.OriginOf(rawURL)
	if err != nil {
		return nil, err
	}
	return c.GetOrigin(ctx, o)
}

// GetOrigin returns the answer for an origin: from the store when it holds a
// fresh copy or a failure whose retry is not due, else by fetching. The
// error is non-nil only when the fetcher's User-Agent cannot be sent
// (fetch.ErrInvalidUserAgent: nothing is fetched or stored), or when ctx is
// done first: the caller then gets no answer, but the fetch goes on
// (bounded by the fetcher's timeout) and its result is cached for the next
// question.
func (c *Cache) GetOrigin(ctx context.Context, o fetch.Origin) (*Answer, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if c.uaErr != nil {
		return nil, c.uaErr
	}
	key := c.opts.KeyPrefix + o.String()
	e := c.load(ctx, key)
	if a := c.answer(o, e, c.now(), Cached); a != nil {
		c.stats.hits.Add(1)
		if a.Source == StaleCache {
			c.stats.stale.Add(1)
		}
		return a, nil
	}
	c.stats.misses.Add(1)
	r, err := c.fly(ctx, o, key, false)
	if err != nil {
		return nil, err
	}
	if r.a.Source == StaleCache {
		c.stats.stale.Add(1)
	}
	return r.a, nil
}

// Refresh returns the answer for the origin of rawURL (any URL of the
// site) as it is now: see RefreshOrigin.
func (c *Cache) Refresh(ctx context.Context, rawURL string) (*Answer, error) {
	o, err := fetch.OriginOf(rawURL)
	if err != nil {
		return nil, err
	}
	return c.RefreshOrigin(ctx, o)
}

// RefreshOrigin fetches the robots.txt of o now, whatever the store holds:
// a fresh copy or a failure whose retry is not due is not an answer. It is
// for a site owner who has just changed the file, and for a crawler's
// operator asking for a new copy (robotstxt fetch --refresh); a crawler
// asks GetOrigin, which fetches an origin once per copy.
//
// The result is stored as GetOrigin stores it, and answers the questions
// that follow. The fetch is conditional when the store holds a copy with
// validators (ETag, Last-Modified): a 304 keeps the copy and makes it
// fresh again. A fetch that fails (5xx, 429, no answer) extends the
// failure streak, schedules the retry and answers with the copy, stale,
// or with no copy with what the failure means, as GetOrigin does.
//
// Every answer comes from a fetch that ended after the call began, or
// after the call it shares a fetch with began: Answer.Source is Network,
// or StaleCache when that fetch failed and the copy is served. Fetches
// are shared as GetOrigin shares them: a call made while a fetch of o is
// under way in this cache, for GetOrigin or RefreshOrigin, waits for it
// and answers with its result (when the GetOrigin it joined found a copy
// in the store without fetching, the call then fetches); with a store
// shared by a fleet, a call that finds another process's lease on o
// waits for the result that process stores next, and answers with it.
//
// The errors are GetOrigin's: a User-Agent that cannot be sent, or ctx
// done first (the fetch goes on, and its result is stored).
func (c *Cache) RefreshOrigin(ctx context.Context, o fetch.Origin) (*Answer, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if c.uaErr != nil {
		return nil, c.uaErr
	}
	c.stats.refreshes.Add(1)
	key := c.opts.KeyPrefix + o.String()
	for {
		r, err := c.fly(ctx, o, key, true)
		if err != nil {
			return nil, err
		}
		if !r.fetched {
			// A GetOrigin's flight that found a fresh copy: fetch.
			continue
		}
		if r.a.Source == StaleCache {
			c.stats.stale.Add(1)
		}
		return r.a, nil
	}
}

// flight is the result of one fill, shared by the questions that waited
// for it.
type flight struct {
	a *Answer
	// fetched says whether a fetch made for this fill gave the answer,
	// or, with force, one another process stored while this fill waited
	// for its lease; false when a copy in the store did.
	fetched bool
}

// fly runs fill for key, or waits for the one under way, and returns a
// copy of its answer that the caller may change. force is fill's, for a
// fill this call starts.
func (c *Cache) fly(ctx context.Context, o fetch.Origin, key string, force bool) (flight, error) {
	ch := c.flight.DoChan(key, func() (any, error) {
		return c.fill(context.WithoutCancel(ctx), o, key, force), nil
	})
	select {
	case r := <-ch:
		f := *r.Val.(*flight)
		a := *f.a
		f.a = &a
		return f, nil
	case <-ctx.Done():
		return flight{}, ctx.Err()
	}
}

// load reads an origin's entry; a missing, unreadable or corrupt value, or a
// store that fails, is a miss.
func (c *Cache) load(ctx context.Context, key string) *entry {
	b, ok, err := c.store.Get(ctx, key)
	if err != nil {
		c.stats.storeErrors.Add(1)
		return nil
	}
	if !ok {
		return nil
	}
	e, err := decodeEntry(b)
	if err != nil {
		c.stats.corrupt.Add(1)
		return nil
	}
	return e
}

// answer gives the answer an entry holds at time now, or nil when the cache
// must fetch: no entry, a copy past its freshness, or a retry due. src is
// the source of an answer that is not stale.
func (c *Cache) answer(o fetch.Origin, e *entry, now time.Time, src Source) *Answer {
	if e == nil {
		return nil
	}
	if !e.failing() {
		if e.HasCopy && now.Before(e.ExpiresAt) {
			return c.fromCopy(o, e, src, e.ExpiresAt)
		}
		return nil
	}
	if !now.Before(e.NextRetry) {
		return nil
	}
	return c.fromFailure(o, e, now, src)
}

// fromCopy answers with the entry's copy.
func (c *Cache) fromCopy(o fetch.Origin, e *entry, src Source, expires time.Time) *Answer {
	a := &Answer{
		Origin: o, Dialect: c.dialect, Policy: e.Policy, Source: src, Reason: e.Reason,
		Status: e.Status, Truncated: e.Truncated, FetchedAt: e.FetchedAt, ExpiresAt: expires,
		FailingSince: e.FailingSince, Trace: e.Trace,
	}
	if e.Policy == fetch.Rules {
		a.Robots = c.parsed.get(o.String(), e.ID, e.Body, &c.stats)
	}
	return a
}

// fromFailure answers for an entry in a failure streak: the copy, stale, or
// with no copy what the failure means (allow all once the origin has been
// unreachable for GiveUp).
func (c *Cache) fromFailure(o fetch.Origin, e *entry, now time.Time, src Source) *Answer {
	if e.HasCopy {
		a := c.fromCopy(o, e, StaleCache, e.NextRetry)
		a.Reason = fmt.Sprintf("the copy fetched %s is used: refreshing it failed %d time(s) since %s (%s)",
			e.FetchedAt.UTC().Format(time.RFC3339), e.Failures, e.FailingSince.UTC().Format(time.RFC3339), e.FailReason)
		return a
	}
	a := &Answer{
		Origin: o, Dialect: c.dialect, Policy: e.FailPolicy, Source: src, Reason: e.FailReason,
		Status: e.FailStatus, FetchedAt: e.LastAttempt, ExpiresAt: e.NextRetry, FailingSince: e.FailingSince, Trace: e.Trace,
	}
	if e.FailPolicy == fetch.DisallowAll && now.Sub(e.FailingSince) >= c.opts.GiveUp {
		a.Policy = fetch.AllowAll
		a.Reason = fmt.Sprintf("unreachable since %s, %s or more with no copy: everything is allowed (last: %s)",
			e.FailingSince.UTC().Format(time.RFC3339), days(c.opts.GiveUp), e.FailReason)
	}
	return a
}

func days(d time.Duration) string {
	if d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	}
	return d.String()
}

// fill fetches an origin and records the outcome. It runs once per
// origin at a time in this cache. Unless force is set, a usable answer in
// the store (another goroutine's or process's fetch, just made) is the
// answer; with force, only a result stored after fill began is (another
// process's fetch, waited for through its lease).
func (c *Cache) fill(ctx context.Context, o fetch.Origin, key string, force bool) *flight {
	old := c.load(ctx, key)
	var seen []byte // the entry when fill began, encoded
	if force && old != nil {
		seen = old.encode()
	}
	// usable returns the answer an entry read later gives, or nil.
	usable := func(e *entry) *Answer {
		if !force {
			return c.answer(o, e, c.now(), Cached)
		}
		if e == nil || seen != nil && bytes.Equal(e.encode(), seen) {
			return nil // nothing stored since fill began
		}
		return c.answerAny(o, e, c.now(), Network)
	}
	if !force {
		// Another goroutine, or another process sharing the store, may
		// have just fetched.
		if a := usable(old); a != nil {
			return &flight{a: a}
		}
	}
	if c.leaser != nil {
		held, a := c.takeLease(ctx, key, usable)
		if a != nil {
			// Another process's result. Without force it may have been
			// stored before a RefreshOrigin joined this fill: not
			// fetched for it.
			return &flight{a: a, fetched: force}
		}
		if held {
			defer c.releaseLease(ctx, key)
			// The last holder may have finished between the load above
			// and the lease.
			e := c.load(ctx, key)
			if a := usable(e); a != nil {
				return &flight{a: a, fetched: force}
			}
			old = e
		}
	}
	var v fetch.Validators
	if old != nil && old.HasCopy && old.Policy == fetch.Rules {
		v = old.Validators
	}
	res, ferr := c.fetcher.Fetch(ctx, o, v)
	now := c.now()
	c.stats.fetches.Add(1)
	var r Refusal
	if errors.As(ferr, &r) {
		// This side refused to connect: the site was not asked, and
		// there is nothing to learn about it, or to store.
		c.stats.refused.Add(1)
		return &flight{fetched: true, a: &Answer{
			Origin: o, Dialect: c.dialect, Policy: fetch.DisallowAll, Source: Network,
			Reason:    "not fetched: " + r.Refusal() + ": everything is disallowed; nothing is stored",
			FetchedAt: res.FetchedAt, Trace: res.Trace, Err: ferr,
		}}
	}
	var e entry
	switch {
	case res.NotModified && old != nil && old.HasCopy:
		c.stats.notModified.Add(1)
		e = *old
		e.Failures, e.FailingSince, e.NextRetry, e.FailPolicy, e.FailStatus, e.FailReason = 0, time.Time{}, time.Time{}, 0, 0, ""
		e.Validators = res.Validators
		e.ValidatedAt = res.FetchedAt
		// A 304 without Cache-Control keeps the stored freshness (RFC
		// 9111 §4.3.4: the stored header fields stay).
		fresh := old.ExpiresAt.Sub(old.ValidatedAt)
		if res.CacheControl != (fetch.CacheControl{}) || fresh <= 0 {
			fresh = c.freshness(res.CacheControl)
		}
		e.ExpiresAt = res.FetchedAt.Add(fresh)
		e.Reason = res.Reason + revalidatedReason(old)
	case !res.Unreachable && !res.NotModified:
		switch res.Policy {
		case fetch.Rules:
			c.stats.rules.Add(1)
		case fetch.AllowAll:
			c.stats.allowAll.Add(1)
		default:
			c.stats.disallowAll.Add(1)
		}
		e = entry{
			ID: newID(), HasCopy: true, Policy: res.Policy, Status: res.Status, Reason: res.Reason,
			Truncated: res.Truncated, FetchedAt: res.FetchedAt, ValidatedAt: res.FetchedAt,
			ExpiresAt: res.FetchedAt.Add(c.freshness(res.CacheControl)),
		}
		if res.Policy == fetch.Rules {
			e.Body, e.Validators = res.Body, res.Validators
		}
	default:
		// Unreachable (or a 304 the cache did not ask for): keep the copy,
		// extend the failure streak, schedule the retry.
		c.stats.unreachable.Add(1)
		if ferr != nil {
			c.stats.errors.Add(1)
		}
		if old != nil {
			e = *old
		}
		if !e.failing() {
			e.FailingSince = res.FetchedAt
		}
		e.Failures++
		e.NextRetry = now.Add(c.retryDelay(res, e.Failures))
		e.FailPolicy, e.FailStatus, e.FailReason = res.Policy, res.Status, res.Reason
		if e.FailPolicy == 0 || e.FailPolicy == fetch.Rules {
			e.FailPolicy = fetch.DisallowAll
		}
	}
	e.LastAttempt = res.FetchedAt
	e.Trace = res.Trace
	ttl := c.opts.Retain + max(e.ExpiresAt.Sub(now), e.NextRetry.Sub(now), 0)
	if err := c.store.Put(ctx, key, e.encode(), ttl); err != nil {
		c.stats.storeErrors.Add(1)
	}
	var a *Answer
	if e.failing() {
		a = c.fromFailure(o, &e, now, Network)
	} else {
		a = c.fromCopy(o, &e, Network, e.ExpiresAt)
	}
	a.Trace = res.Trace
	a.Err = ferr
	return &flight{a: a, fetched: true}
}

// answerAny gives the answer an entry holds at time now, even when it
// is past its freshness or its retry is due (a result just stored by
// another process).
func (c *Cache) answerAny(o fetch.Origin, e *entry, now time.Time, src Source) *Answer {
	if e.failing() {
		return c.fromFailure(o, e, now, src)
	}
	return c.fromCopy(o, e, src, e.ExpiresAt)
}

// revalidatedReason is what a 304 adds to its own reason: when the copy
// was fetched and what it was. The copy's reason is taken without what an
// earlier 304 added, so that a copy renewed a thousand times says it once.
func revalidatedReason(old *entry) string {
	note := " (the copy fetched " + old.FetchedAt.UTC().Format(time.RFC3339) + "; "
	base := old.Reason
	if i := strings.Index(base, note); i >= 0 && strings.HasSuffix(base, ")") {
		base = base[i+len(note) : len(base)-1]
	}
	return note + base + ")"
}

// freshness is how long a copy stays fresh given its Cache-Control, counted
// from the start of the fetch that got it.
func (c *Cache) freshness(cc fetch.CacheControl) time.Duration {
	switch {
	case cc.NoStore || cc.NoCache:
		return c.opts.MinTTL
	case cc.HasMaxAge:
		return min(max(cc.MaxAge, c.opts.MinTTL), c.opts.MaxTTL)
	}
	return c.opts.TTL
}

// retryDelay is how long to wait before retrying a failed fetch: a 503 (or
// 429) says when with Retry-After (kept within [1 s, MaxTTL]), a 503 without
// it is retried after RetryMin, and other failures back off from RetryMin,
// doubling up to RetryMax.
func (c *Cache) retryDelay(res *fetch.Result, failures int) time.Duration {
	if (res.Status == 503 || res.Status == 429) && res.HasRetryAfter {
		return min(max(res.RetryAfter, time.Second), c.opts.MaxTTL)
	}
	if res.Status == 503 {
		return c.opts.RetryMin
	}
	d := c.opts.RetryMin
	for i := 1; i < failures && d < c.opts.RetryMax; i++ {
		d *= 2
	}
	return min(d, c.opts.RetryMax)
}

// Refusal is an error by which the fetcher's own side refused a fetch
// before any request, by its policy: the address guard of the service
// (server.Guard), which does not connect to loopback or private addresses,
// returns one from the fetcher's DialContext. Refusal says why, in words
// ("127.0.0.1 is a loopback address ...").
//
// The site was not asked, so a refused fetch says nothing about it: the
// cache stores nothing (no copy replaced, no failure streak begun or
// extended) and answers with Policy DisallowAll, Source Network, the
// error in Answer.Err (errors.As finds the Refusal) and a zero ExpiresAt;
// the next question fetches again.
type Refusal interface {
	error
	Refusal() string
}

// Forget drops what the cache holds for the origin of rawURL, so the next
// question fetches it.
func (c *Cache) Forget(ctx context.Context, rawURL string) error {
	o, err := fetch.OriginOf(rawURL)
	if err != nil {
		return err
	}
	return c.store.Delete(ctx, c.opts.KeyPrefix+o.String())
}

func newID() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// Stats are the cache's counters since New. They only grow.
type Stats struct {
	Hits   uint64 // questions answered from the store
	Misses uint64 // questions that needed a fetch (theirs or another's)
	Stale  uint64 // answers given from a copy past its freshness
	// Fetches counts fetches made, and the others their outcomes.
	Fetches     uint64
	Rules       uint64 // a body to obey
	AllowAll    uint64 // no valid robots.txt (4xx, failed redirects, ...)
	DisallowAll uint64 // an answer that disallows everything (the original draft's 401/403)
	Unreachable uint64 // 5xx, 429, network failures: retried later
	NotModified uint64 // 304: the copy is still good
	Errors      uint64 // of the unreachable ones, those that got no answer at all
	Parses      uint64 // bodies parsed
	StoreErrors uint64 // store reads and writes that failed (answered anyway)
	Corrupt     uint64 // stored values that could not be read (read as misses)
	// The leases of a store shared by a fleet (see Cache).
	Leases       uint64 // leases taken on origins before fetching them
	LeaseWaits   uint64 // refreshes that found another process's lease and waited
	LeaseShared  uint64 // of those, answered by the other process's fetch
	LeaseExpired uint64 // of those, that fetched after waiting LeaseTTL twice, or after a lease error
	LocalFetches uint64 // fetches made while the shared store was unreachable: not shared with the fleet
	// Refreshes counts calls of Refresh and RefreshOrigin; their fetches
	// are in Fetches, they are neither Hits nor Misses.
	Refreshes uint64
	Refused   uint64 // of the fetches, those this side refused (see Refusal): nothing stored
}

type counters struct {
	hits, misses, stale, fetches, rules, allowAll, disallowAll, unreachable,
	notModified, errors, parses, storeErrors, corrupt,
	leases, leaseWaits, leaseShared, leaseExpired, localFetches,
	refreshes, refused atomic.Uint64
}

// Stats returns a snapshot of the counters.
func (c *Cache) Stats() Stats {
	s := &c.stats
	return Stats{
		Hits: s.hits.Load(), Misses: s.misses.Load(), Stale: s.stale.Load(), Fetches: s.fetches.Load(),
		Rules: s.rules.Load(), AllowAll: s.allowAll.Load(), DisallowAll: s.disallowAll.Load(),
		Unreachable: s.unreachable.Load(), NotModified: s.notModified.Load(), Errors: s.errors.Load(),
		Parses: s.parses.Load(), StoreErrors: s.storeErrors.Load(), Corrupt: s.corrupt.Load(),
		Leases: s.leases.Load(), LeaseWaits: s.leaseWaits.Load(), LeaseShared: s.leaseShared.Load(),
		LeaseExpired: s.leaseExpired.Load(), LocalFetches: s.localFetches.Load(),
		Refreshes: s.refreshes.Load(), Refused: s.refused.Load(),
	}
}
