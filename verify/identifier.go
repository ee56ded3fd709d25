package verify

import (
	"context"
	"net/http"
	"net/netip"
	neturl "net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/webbotauth"
)

// Defaults of IdentifierOptions.
const (
	// DefaultIdentifyDeadline is how long Identify waits for an answer it
	// does not hold (a reverse DNS lookup, a key directory) before it
	// answers unverified.
	DefaultIdentifyDeadline = 50 * time.Millisecond
	// DefaultIdentifyEntries bounds the addresses whose answers are kept.
	DefaultIdentifyEntries = 32768
	// DefaultIdentifyTTL is how long a definite answer is kept.
	DefaultIdentifyTTL = time.Hour
	// DefaultIdentifyRetry is how long an answer that DNS could not give
	// (a timeout, a server failure) is kept before the address is looked
	// up again.
	DefaultIdentifyRetry = time.Minute
	// DefaultIdentifyConcurrency bounds the lookups running at once.
	DefaultIdentifyConcurrency = 16
	// DefaultIdentifyPending bounds the lookups queued or running.
	DefaultIdentifyPending = 1024
	// DefaultIdentifyLookupTimeout bounds one address's lookups (its PTR
	// and the forward lookups of its names).
	DefaultIdentifyLookupTimeout = 10 * time.Second
	// DefaultListCheck is how often the Identifier asks its ListFetcher
	// for its lists (the fetcher fetches a list at most daily).
	DefaultListCheck = time.Minute
	// maxClaims bounds the crawlers whose evidence is kept per address
	// (an address claiming more has the others judged again from its
	// DNS answer, which is kept).
	maxClaims = 4
)

// IdentifierList is an address list at a URL and the catalogue crawlers
// it covers.
type IdentifierList struct {
	URL      string
	Crawlers []string
}

// IdentifierOptions configures an Identifier. The zero value works: no
// address list, reverse DNS through the system's resolver, signatures
// checked with key directories fetched by a client of its own (which
// reaches any address: a service passes Client or Signatures with its
// SSRF guard).
type IdentifierOptions struct {
	// Verifier holds the address lists read from files (AddRanges, before
	// NewIdentifier) and the DNS settings (NoDNS, Resolver, Timeout per
	// lookup). nil: New(nil).
	Verifier *Verifier
	// Signatures checks Web Bot Auth signatures. nil: a
	// webbotauth.Verifier whose directories are fetched through Client.
	Signatures *webbotauth.Verifier
	// NoSignatures turns the signature check off.
	NoSignatures bool
	// Client fetches key directories (when Signatures is nil) and address
	// lists (when Fetcher is nil). A service passes its SSRF-guarded
	// client. nil: a client of its own.
	Client *http.Client
	// Store, when set, is given to the key directories (when Signatures
	// is nil) and the list fetcher (when Fetcher is nil): a fleet on one
	// store fetches each directory and list once, one process at a time
	// on a store with leases.
	Store store.Store
	// Lists are address lists at URLs, fetched by Fetcher in the
	// background (never while a request waits) and kept current.
	Lists []IdentifierList
	// Published adds every list the crawlers' operators publish
	// (PublishedLists) to Lists.
	Published bool
	// Fetcher fetches Lists (nil: NewListFetcher with Client). Give it a
	// Store so that a fleet fetches each list once.
	Fetcher *ListFetcher
	// ListCheck is how often the lists are asked for (DefaultListCheck).
	ListCheck time.Duration
	// Warn, when set, is told of a list that could not be had or is
	// stale (at most once per distinct message and list).
	Warn func(url, message string)
	// SigningAgents maps a catalogue crawler's name to the hosts whose key
	// directories speak for it, added to the built-in table
	// (SigningAgentsFor). A signature verified with another agent's key
	// does not verify a claim to be the crawler.
	SigningAgents map[string][]string
	// Deadline bounds how long Identify waits for what it does not hold
	// (DefaultIdentifyDeadline): past it, the answer is unverified and
	// Evidence.Pending is set; the lookup goes on, and later requests get
	// its answer. A context deadline that comes sooner is kept.
	Deadline time.Duration
	// MaxEntries bounds the addresses whose answers are kept
	// (DefaultIdentifyEntries); past it, the oldest half is forgotten.
	MaxEntries int
	// TTL is how long a definite answer is kept (DefaultIdentifyTTL);
	// RetryTTL an answer DNS failed to give (DefaultIdentifyRetry).
	TTL, RetryTTL time.Duration
	// Concurrency bounds the reverse DNS lookups running at once
	// (DefaultIdentifyConcurrency); MaxPending those queued or running
	// (DefaultIdentifyPending): past it, an address not yet looked up is
	// unverified and not looked up (a later request may).
	Concurrency, MaxPending int
	// LookupTimeout bounds one address's lookups
	// (DefaultIdentifyLookupTimeout).
	LookupTimeout time.Duration
	// Now is the clock (time.Now).
	Now func() time.Time
}

// Identifier answers "is this request the crawler it claims to be?" for a
// live request without blocking it: a Web Bot Auth signature first, then
// the operator's published address lists, then forward-confirmed reverse
// DNS. An answer not known within the deadline is Unverified now, the
// lookup goes on in the background (bounded), and later requests get it.
//
// Answers are kept per address and claimed crawler, in a cache bounded in
// entries and time: a flood of claims from many addresses costs at most
// one lookup per address, and from one address one lookup, for as long as
// the answer is kept. It is safe for concurrent use.
type Identifier struct {
	o      IdentifierOptions
	v      *Verifier
	dns    bool
	sig    *webbotauth.Verifier
	agents map[string][]string // lower-case crawler name -> agent hosts
	sem    chan struct{}       // lookups running
	slots  chan struct{}       // lookups queued or running

	lists     atomic.Pointer[listSet]
	refreshMu sync.Mutex   // one Refresh at a time
	listNext  atomic.Int64 // when the lists are next asked for (Unix ns)
	listBusy  atomic.Bool

	shards [idShards]idShard
	// perShard bounds each shard's entries (MaxEntries over the shards).
	perShard int

	hits, misses, lookups, dropped, pending, signatures atomic.Int64

	warnMu sync.Mutex
	warned map[string]string // list URL -> last warning
}

// idShards is the number of parts the cache is cut into, each under its
// own lock, so that requests from different addresses seldom wait for
// each other.
const idShards = 16

// idShard is one part of the cache: the addresses whose hash falls in it.
type idShard struct {
	mu     sync.Mutex
	cur    map[netip.Addr]*idEntry
	old    map[netip.Addr]*idEntry
	flying map[netip.Addr]*idEntry // being looked up
}

// shard returns ip's part of the cache.
func (id *Identifier) shard(ip netip.Addr) *idShard {
	b := ip.As16()
	h := (uint32(b[12])<<24 | uint32(b[13])<<16 | uint32(b[14])<<8 | uint32(b[15])) ^ uint32(b[7])<<8 ^ uint32(b[5])
	return &id.shards[(h*2654435761)>>28%idShards]
}

// IdentifierStats counts an Identifier's work.
type IdentifierStats struct {
	// Hits are answers given from the cache; Misses the others.
	Hits   int64 `json:"hits"`
	Misses int64 `json:"misses"`
	// Lookups are the reverse DNS lookups started (one per address per
	// TTL); Dropped the addresses not looked up because MaxPending were
	// under way; Pending the answers given unverified while a lookup was
	// under way.
	Lookups int64 `json:"lookups"`
	Dropped int64 `json:"dropped"`
	Pending int64 `json:"pending"`
	// Signatures are the requests whose signatures were checked.
	Signatures int64 `json:"signatures"`
	// Entries are the addresses held now.
	Entries int `json:"entries"`
}

// listSet is the lists fetched, by lower-case crawler name; gen changes
// when they do, so that answers read from the old ones are judged again.
type listSet struct {
	gen  uint64
	by   map[string][]*Ranges
	urls map[string]*Ranges
}

const (
	stateNone    = iota // no lookup made (none needed so far)
	statePending        // a lookup is under way: done closes when in
	stateDone           // ans holds DNS's answer
)

// idEntry is what is known of one address.
type idEntry struct {
	state    uint8
	next     uint8 // the claim slot to overwrite next
	done     chan struct{}
	ans      dnsAnswer
	answered time.Time // when DNS answered
	expires  time.Time
	claims   [maxClaims]claim
}

// claim is the evidence for one crawler claimed from the address.
type claim struct {
	name string
	gen  uint64
	ev   *Evidence
}

// signingAgents are the hosts of the key directories the operators name
// for their crawlers' signatures, as of 2026-11.
var signingAgents = map[string][]string{
	"google-agent": {"agent.bot.goog"}, // developers.google.com/crawling/docs/crawlers-fetchers/web-bot-auth
	"chatgpt-user": {"chatgpt.com"},    // OpenAI's ChatGPT agent
}

// SigningAgentsFor returns the hosts whose key directories speak for
// crawler c by the built-in table; a host in one of c's ReverseDNS
// domains does too.
func SigningAgentsFor(c *robotstxt.Crawler) []string {
	return append([]string(nil), signingAgents[strings.ToLower(c.Name)]...)
}

// NewIdentifier returns an Identifier with options o.
func NewIdentifier(o IdentifierOptions) *Identifier {
	if o.Deadline <= 0 {
		o.Deadline = DefaultIdentifyDeadline
	}
	if o.MaxEntries <= 0 {
		o.MaxEntries = DefaultIdentifyEntries
	}
	o.MaxEntries = max(o.MaxEntries, 2)
	if o.TTL <= 0 {
		o.TTL = DefaultIdentifyTTL
	}
	if o.RetryTTL <= 0 {
		o.RetryTTL = DefaultIdentifyRetry
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultIdentifyConcurrency
	}
	if o.MaxPending <= 0 {
		o.MaxPending = DefaultIdentifyPending
	}
	o.MaxPending = max(o.MaxPending, o.Concurrency)
	if o.LookupTimeout <= 0 {
		o.LookupTimeout = DefaultIdentifyLookupTimeout
	}
	if o.ListCheck <= 0 {
		o.ListCheck = DefaultListCheck
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	id := &Identifier{
		o: o, v: o.Verifier, sig: o.Signatures,
		agents: map[string][]string{},
		sem:    make(chan struct{}, o.Concurrency),
		slots:  make(chan struct{}, o.MaxPending),
		warned: map[string]string{},
	}
	id.perShard = max(o.MaxEntries/idShards, 2)
	for i := range id.shards {
		id.shards[i].cur = map[netip.Addr]*idEntry{}
		id.shards[i].flying = map[netip.Addr]*idEntry{}
	}
	if id.v == nil {
		id.v = New(nil)
	}
	id.dns = !id.v.opts.NoDNS
	if id.sig == nil && !o.NoSignatures {
		id.sig = webbotauth.New(webbotauth.Options{
			Directories: webbotauth.NewDirectories(webbotauth.DirectoryOptions{Client: o.Client, Now: o.Now, Store: o.Store}),
			Now:         o.Now,
		})
	}
	if o.NoSignatures {
		id.sig = nil
	}
	for k, v := range signingAgents {
		id.agents[k] = append(id.agents[k], v...)
	}
	for k, v := range o.SigningAgents {
		k = strings.ToLower(k)
		id.agents[k] = append(id.agents[k], v...)
	}
	if o.Published {
		id.o.Lists = append(id.o.Lists, publishedIdentifierLists()...)
	}
	if len(id.o.Lists) > 0 && id.o.Fetcher == nil {
		id.o.Fetcher = NewListFetcher(ListOptions{Client: o.Client, Now: o.Now, Store: o.Store})
	}
	id.lists.Store(&listSet{})
	return id
}

// publishedIdentifierLists are PublishedLists with the crawlers each
// covers.
func publishedIdentifierLists() []IdentifierList {
	var out []IdentifierList
	cs := robotstxt.Crawlers()
	for _, p := range published {
		l := IdentifierList{URL: p.URL, Crawlers: append([]string(nil), p.Crawlers...)}
		for i := range cs {
			for _, u := range cs[i].IPRanges {
				if u == p.URL && !containsFold(l.Crawlers, cs[i].Name) {
					l.Crawlers = append(l.Crawlers, cs[i].Name)
				}
			}
		}
		if len(l.Crawlers) > 0 {
			out = append(out, l)
		}
	}
	return out
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// signed reports whether h carries a signature to check.
func signed(h http.Header) bool {
	return len(h["Signature-Input"]) > 0 || len(h["Signature"]) > 0
}

// Identify tells whether the request r from ip is the crawler c it
// claims to be (r may be nil: the address alone is checked; c nil: no
// claim, only a signature can say who signed). It returns within the
// Deadline: an answer not known by then is unverified, with
// Evidence.Pending set, and the lookup goes on for later requests.
//
// A Web Bot Auth signature decides first: a wrong one is Spoofed, one
// that verifies with a key of the crawler's signing agent (SigningAgentsFor,
// IdentifierOptions.SigningAgents, or a host in the crawler's ReverseDNS
// domains) is Verified. Otherwise the address lists and reverse DNS
// decide, as Verifier.Check does.
//
// The Evidence's slices (Lists, Names) are shared with the cache: do not
// modify them.
func (id *Identifier) Identify(ctx context.Context, r *http.Request, ip netip.Addr, c *robotstxt.Crawler) Evidence {
	return id.IdentifyWithin(ctx, r, ip, c, id.o.Deadline)
}

// IdentifyWithin is Identify with its own deadline, wait, in place of
// IdentifierOptions.Deadline: a service that answers a question about an
// identity (POST /v1/verify) may wait longer than a guard in front of a
// page.
func (id *Identifier) IdentifyWithin(ctx context.Context, r *http.Request, ip netip.Addr, c *robotstxt.Crawler, wait time.Duration) Evidence {
	now := id.o.Now()
	ip = ip.Unmap()
	if len(id.o.Lists) > 0 {
		id.maybeRefreshLists(now)
	}
	note, sigPending := "", false
	if r != nil && id.sig != nil && signed(r.Header) {
		ev, decided, why := id.signature(ctx, r, ip, c, wait)
		if decided || c == nil {
			// With no claim, the signature's evidence is the answer,
			// verified or not.
			return ev
		}
		note, sigPending = why, ev.Pending
	}
	var ev Evidence
	switch {
	case c == nil:
		ev = Evidence{Outcome: Unverified.String(), Method: MethodNone, Reason: "no crawler claimed", Checked: now}
		if ip.IsValid() {
			ev.IP = ip.String()
		}
	case !ip.IsValid():
		ev = Evidence{Crawler: c.Name, Outcome: Unverified.String(), Method: MethodNone, Reason: "no client address", Checked: now}
	default:
		ev = id.address(ctx, ip, c, now, wait)
	}
	if note != "" {
		ev.Reason += "; " + note
		// A key directory still being fetched may verify the next
		// request.
		ev.Pending = ev.Pending || sigPending && ev.Outcome == Unverified.String()
	}
	return ev
}

// signature checks r's signatures within the deadline. decided: the
// signature settles the claim; else why it did not, in words.
func (id *Identifier) signature(ctx context.Context, r *http.Request, ip netip.Addr, c *robotstxt.Crawler, wait time.Duration) (ev Evidence, decided bool, why string) {
	id.signatures.Add(1)
	sctx, cancel := context.WithTimeout(ctx, wait)
	res := id.sig.Verify(sctx, r)
	cancel()
	ev = FromSignature(res)
	if c != nil {
		ev.Crawler = c.Name
	}
	if ip.IsValid() {
		ev.IP = ip.String()
	}
	switch res.Outcome {
	case Spoofed:
		return ev, true, ""
	case Verified:
		if c == nil || id.speaksFor(res.Agent, c) {
			return ev, true, ""
		}
		return ev, false, "signature verified for " + res.Agent + ", which does not speak for " + c.Name
	}
	return ev, false, "signature not checked: " + res.Reason
}

// speaksFor reports whether the signing agent (a URL) speaks for c.
func (id *Identifier) speaksFor(agent string, c *robotstxt.Crawler) bool {
	u, err := neturl.Parse(agent)
	if err != nil || u.Hostname() == "" {
		return false
	}
	host := strings.ToLower(u.Hostname())
	for _, h := range id.agents[strings.ToLower(c.Name)] {
		if strings.EqualFold(h, host) {
			return true
		}
	}
	return inDomains(host, c.ReverseDNS)
}

// address decides c's claim from ip by the lists and reverse DNS.
func (id *Identifier) address(ctx context.Context, ip netip.Addr, c *robotstxt.Crawler, now time.Time, wait time.Duration) Evidence {
	ls := id.lists.Load()
	sh := id.shard(ip)
	sh.mu.Lock()
	if e := id.entryLocked(sh, ip, now); e != nil {
		for i := range e.claims {
			if cl := &e.claims[i]; cl.ev != nil && cl.name == c.Name && cl.gen == ls.gen {
				ev := *cl.ev
				sh.mu.Unlock()
				id.hits.Add(1)
				return ev
			}
		}
	}
	sh.mu.Unlock()
	id.misses.Add(1)

	rs := id.rangesFor(c, ls)
	in := false
	for _, r := range rs {
		if r.Contains(ip) {
			in = true
			break
		}
	}
	if in || !id.dns || len(c.ReverseDNS) == 0 {
		res := inRangesResult(c)
		if !in {
			res = judge(ip, c, len(rs) > 0, nil)
		}
		return id.keep(ip, c, ls.gen, rs, res, now, now)
	}

	sh.mu.Lock()
	e := id.entryLocked(sh, ip, now)
	if e == nil {
		e = id.insertLocked(sh, ip, &idEntry{expires: now.Add(id.o.TTL)})
	}
	switch e.state {
	case stateDone:
		ans, at := e.ans, e.answered
		sh.mu.Unlock()
		return id.keep(ip, c, ls.gen, rs, judge(ip, c, len(rs) > 0, &ans), at, now)
	case stateNone:
		select {
		case id.slots <- struct{}{}:
		default:
			sh.mu.Unlock()
			id.dropped.Add(1)
			return pendingEvidence(ip, c, now, "reverse DNS not looked up: too many lookups under way")
		}
		e.state = statePending
		e.done = make(chan struct{})
		sh.flying[ip] = e
		id.lookups.Add(1)
		go id.lookup(sh, ip, e)
	}
	done := e.done
	sh.mu.Unlock()

	if dl, ok := ctx.Deadline(); ok {
		wait = min(wait, time.Until(dl))
	}
	if wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-done:
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
	select {
	case <-done:
		// e.ans was written before done closed, and is never written
		// again.
		return id.keep(ip, c, ls.gen, rs, judge(ip, c, len(rs) > 0, &e.ans), e.answered, now)
	default:
	}
	id.pending.Add(1)
	return pendingEvidence(ip, c, now, "reverse DNS lookup under way")
}

// pendingEvidence is the answer while what decides is not known.
func pendingEvidence(ip netip.Addr, c *robotstxt.Crawler, now time.Time, why string) Evidence {
	return Evidence{Crawler: c.Name, IP: ip.String(), Outcome: Unverified.String(), Method: MethodNone,
		Pending: true, Reason: why + ": unverified until it answers", Checked: now}
}

// keep records the evidence of res (decided at checked) for c at ip, and
// returns it.
func (id *Identifier) keep(ip netip.Addr, c *robotstxt.Crawler, gen uint64, rs []*Ranges, res Result, checked, now time.Time) Evidence {
	ev := Evidence{Crawler: c.Name, IP: ip.String(), Outcome: res.Outcome.String(), Method: res.Method, Reason: res.Reason, Checked: checked}
	if ev.Method == "" {
		ev.Method = MethodNone
	}
	if res.Name != "" {
		ev.Names = []string{res.Name}
	}
	if res.Method == MethodRanges {
		ev.Lists = listEvidence(rs, ip, res.Outcome)
	}
	p := new(Evidence)
	*p = ev
	sh := id.shard(ip)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	e := id.entryLocked(sh, ip, now)
	if e == nil {
		e = id.insertLocked(sh, ip, &idEntry{expires: now.Add(id.o.TTL)})
	}
	slot := -1
	for i := range e.claims {
		if e.claims[i].name == c.Name {
			slot = i
			break
		}
	}
	if slot < 0 {
		slot = int(e.next)
		e.next = uint8((slot + 1) % maxClaims)
	}
	e.claims[slot] = claim{name: c.Name, gen: gen, ev: p}
	return ev
}

// entryLocked returns ip's entry in its shard sh, nil when none or
// expired (then dropped). Called with sh.mu held.
func (id *Identifier) entryLocked(sh *idShard, ip netip.Addr, now time.Time) *idEntry {
	if e := sh.flying[ip]; e != nil {
		return e
	}
	e := sh.cur[ip]
	if e == nil {
		if e = sh.old[ip]; e == nil {
			return nil
		}
		delete(sh.old, ip)
		id.insertLocked(sh, ip, e)
	}
	if !now.Before(e.expires) {
		delete(sh.cur, ip)
		return nil
	}
	return e
}

// insertLocked adds e as ip's entry in sh, forgetting the oldest half of
// the shard's entries when it is full. Called with sh.mu held.
func (id *Identifier) insertLocked(sh *idShard, ip netip.Addr, e *idEntry) *idEntry {
	if len(sh.cur) >= id.perShard/2 {
		sh.old, sh.cur = sh.cur, make(map[netip.Addr]*idEntry, id.perShard/2)
	}
	sh.cur[ip] = e
	return e
}

// lookup looks ip up in the background and records the answer in e.
func (id *Identifier) lookup(sh *idShard, ip netip.Addr, e *idEntry) {
	defer func() { <-id.slots }()
	id.sem <- struct{}{}
	ctx, cancel := context.WithTimeout(context.Background(), id.o.LookupTimeout)
	ans := id.v.resolve(ctx, ip)
	cancel()
	<-id.sem
	now := id.o.Now()
	ttl := id.o.TTL
	if !ans.Definite {
		ttl = id.o.RetryTTL
	}
	sh.mu.Lock()
	e.ans, e.answered, e.expires, e.state = ans, now, now.Add(ttl), stateDone
	delete(sh.flying, ip)
	if sh.cur[ip] == nil && sh.old[ip] == nil {
		id.insertLocked(sh, ip, e) // forgotten while looked up: kept again
	}
	close(e.done)
	sh.mu.Unlock()
}

// rangesFor returns c's lists: the Verifier's and those fetched.
func (id *Identifier) rangesFor(c *robotstxt.Crawler, ls *listSet) []*Ranges {
	k := strings.ToLower(c.Name)
	id.v.mu.Lock()
	static := id.v.ranges[k]
	id.v.mu.Unlock()
	fetched := ls.by[k]
	switch {
	case len(fetched) == 0:
		return static
	case len(static) == 0:
		return fetched
	}
	return append(append([]*Ranges(nil), static...), fetched...)
}

// Stats returns the counts of the Identifier's work so far.
func (id *Identifier) Stats() IdentifierStats {
	s := IdentifierStats{Hits: id.hits.Load(), Misses: id.misses.Load(), Lookups: id.lookups.Load(),
		Dropped: id.dropped.Load(), Pending: id.pending.Load(), Signatures: id.signatures.Load()}
	for i := range id.shards {
		sh := &id.shards[i]
		sh.mu.Lock()
		s.Entries += len(sh.cur) + len(sh.old) + len(sh.flying)
		sh.mu.Unlock()
	}
	return s
}

// maybeRefreshLists asks for the lists in the background when it is
// time.
func (id *Identifier) maybeRefreshLists(now time.Time) {
	if now.UnixNano() < id.listNext.Load() || !id.listBusy.CompareAndSwap(false, true) {
		return
	}
	id.listNext.Store(now.Add(id.o.ListCheck).UnixNano())
	go func() {
		defer id.listBusy.Store(false)
		ctx, cancel := context.WithTimeout(context.Background(), 2*DefaultListTimeout)
		defer cancel()
		id.Refresh(ctx)
	}()
}

// Refresh asks the Fetcher for every list now (each fetched only when its
// copy is not fresh) and uses what it gets: a list that cannot be had
// keeps its last copy. Identify calls it in the background every
// ListCheck; call it at start to have the lists before the first request.
func (id *Identifier) Refresh(ctx context.Context) {
	if len(id.o.Lists) == 0 {
		return
	}
	id.refreshMu.Lock()
	defer id.refreshMu.Unlock()
	old := id.lists.Load()
	next := &listSet{gen: old.gen, by: map[string][]*Ranges{}, urls: map[string]*Ranges{}}
	changed := false
	for _, l := range id.o.Lists {
		r, ok := next.urls[l.URL]
		if !ok {
			res, err := id.o.Fetcher.Get(ctx, l.URL)
			switch {
			case err != nil:
				id.warn(l.URL, err.Error())
				r = old.urls[l.URL]
			default:
				r = res.Ranges
				if len(res.Warnings) > 0 {
					id.warn(l.URL, strings.Join(res.Warnings, "; "))
				}
			}
			next.urls[l.URL] = r
			if r != old.urls[l.URL] {
				changed = true
			}
		}
		if r == nil {
			continue
		}
		for _, c := range l.Crawlers {
			k := strings.ToLower(c)
			next.by[k] = append(next.by[k], r)
		}
	}
	if changed {
		next.gen++
		id.lists.Store(next)
	}
}

func (id *Identifier) warn(url, msg string) {
	if id.o.Warn == nil {
		return
	}
	id.warnMu.Lock()
	same := id.warned[url] == msg
	id.warned[url] = msg
	id.warnMu.Unlock()
	if !same {
		id.o.Warn(url, msg)
	}
}
