// Package audit judges the requests of an access log against the
// robots.txt that was in force when each was made, and says who the
// crawler really was: "which bots ignore my robots.txt?" and "is this
// Googlebot real?".
//
// An [Auditor] reads log lines (package accesslog parses them). For each
// request it finds the crawler the User-Agent names (a [Catalogue] of
// the crawler table: the product token robots.txt matching reads, or a
// catalogue token standing as a product in a browser-like header);
// browsers and unknown clients are counted, not judged. A crawler's
// request is judged by the version of robots.txt in force at the
// request's time (the newest [Version] whose From is not after it), in
// the crawler's own dialect with its fallback tokens, as
// robotstxt.Robots.Decider reads it; the deciding line is kept. A
// request for /robots.txt itself is always allowed. The claimed identity
// is checked by a verify.Verifier: verified, spoofed or unverified.
//
// Memory is bounded whatever the log's size, by these limits (the
// Options' defaults):
//
//   - the distinct User-Agent headers remembered: MaxAgents (65,536; past
//     it the older half is forgotten and found again when seen);
//   - the verdicts remembered, per crawler and version: MaxPaths (4,096;
//     the same two-generation forgetting);
//   - the disallowed paths counted per crawler: TopCounters (1,000, the
//     Space-Saving algorithm's counters; TopPaths of them reported);
//   - the (crawler, address) pairs tracked for identity: MaxIPs (100,000);
//     past it a request of a new pair is counted unverified, and the
//     report says how many (untracked_requests);
//   - the unknown bot-like agents counted: TopCounters, TopAgents of
//     them reported.
//
// Counts of requests are exact; the top lists' counts are Space-Saving's
// upper bounds, exact when their count_error is 0.
package audit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/accesslog"
	"github.com/seed53c283f5/robotstxt/verify"
)

// Version is one version of a site's robots.txt, in force from From
// until the next version's From.
type Version struct {
	// From is when the version came into force; the zero time is "since
	// ever" (one file for the whole log).
	From time.Time
	// Source names the version in the report: its file, URL or hash.
	Source string
	Robots *robotstxt.Robots
}

// The defaults of Options.
const (
	DefaultTopPaths    = 10
	DefaultTopSpoofers = 20
	DefaultTopAgents   = 20
	DefaultTopCounters = 1000
	DefaultMaxAgents   = 1 << 16
	DefaultMaxPaths    = 4096
	DefaultMaxIPs      = 100_000
	// MaxSamples is how many unparsed lines a report quotes.
	MaxSamples = 5
	// maxKey bounds a path or header kept as a key: longer ones are cut.
	maxKey = 2048
)

// Options configures an Auditor. Versions is required, but with
// Recorded; every other zero value takes its default.
type Options struct {
	// Versions are the robots.txt versions, in any order (New sorts
	// them by From). At least one, but with Recorded (then none).
	Versions []Version
	// Recorded judges a guard's decision log (accesslog.Guard) by what
	// the guard recorded, with no robots.txt of its own: each request's
	// verdict and deciding line, the version named by the decision's
	// "version", the crawler it "claimed", and the identity its evidence
	// says (no Verifier is asked). Format must be Guard or Auto; a log
	// detected as another format is not judged (Scan returns
	// ErrNoVerdicts).
	Recorded bool
	// Format is the log's format; Auto detects it from the first line
	// AddLine is given (Scan detects it from the first lines).
	Format accesslog.Format
	// Fields maps a JSON log's field names (nil: the format's defaults).
	Fields *accesslog.FieldMap
	// Verifier checks the claimed identities; nil leaves every claim
	// unverified.
	Verifier *verify.Verifier
	// Catalogue finds crawlers (nil: the crawler table's).
	Catalogue *Catalogue
	// UnknownBots counts the bot-like agents the catalogue does not know.
	UnknownBots bool

	TopPaths    int // disallowed paths reported per crawler
	TopSpoofers int // spoofing addresses reported
	TopAgents   int // unknown agents reported
	TopCounters int // counters of each top list (its memory bound)
	MaxAgents   int // distinct User-Agent headers remembered
	MaxPaths    int // verdicts remembered per crawler and version
	MaxIPs      int // (crawler, address) pairs tracked
	// Workers bounds the identity checks running at once (default 16:
	// each may wait on DNS).
	Workers int
}

// Auditor reads the requests of a log and builds the report. Add and
// AddLine are not safe for concurrent use. An Auditor with a Verifier
// runs identity checks on goroutines of its own as addresses are first
// seen; Report waits for them, and Close stops them.
type Auditor struct {
	o        Options
	cat      *Catalogue
	versions []Version
	parser   *accesslog.Parser
	entry    accesslog.Entry

	lines, unparsed, requests, judged int64
	samples                           []Sample
	robotsTxtAll                      int64

	agents, agentsOld map[string]int32 // header -> crawler index, or noCrawler/unknownBot
	crawlers          []*crawlerState  // by catalogue index, nil until seen
	ips               map[string]*ipState
	untracked         int64
	unknown           *topK
	verRequests       []int64
	verDisallowed     []int64

	// The version of the last request, and its bounds: requests come in
	// time order.
	lastVer      int
	lastLo       time.Time
	lastHi       time.Time
	lastVerValid bool

	key []byte // scratch for map keys

	// A guard's decision log: its own figures (g nil for other
	// formats), and with Recorded the versions it named.
	g           *guardTally
	recVer      map[string]int // version string -> index
	verFirst    []time.Time
	verLast     []time.Time
	wrongFormat accesslog.Format // with Recorded: a log of another format

	// Identity checks.
	ctx    context.Context
	cancel context.CancelFunc
	work   chan *ipState
	wg     sync.WaitGroup
}

const (
	noCrawler  = -1
	unknownBot = -2
)

type crawlerState struct {
	c                 *robotstxt.Crawler
	requests          int64
	answers           [Priced + 1]int64 // by AnswerOf
	disallowed        int64
	robotsTxt         int64
	first, last       time.Time
	deciders          []*robotstxt.Decider // by version, made when needed
	verdicts, oldVerd []map[string]verdict // by version
	top               *topK
	ips               int
	// A guard's decision log: the requests the guard answered in the
	// site's place, and those its log mode let pass that the policy
	// would have refused; with Recorded, the requests and disallowed
	// ones by the recorded identity (idVerified, idSpoofed, idUnverified).
	blocked, wouldBlock int64
	idReq, idDis        [3]int64
}

type verdict struct {
	line    int32
	allowed bool
	text    string
}

type ipState struct {
	ip         netip.Addr
	crawler    int
	requests   int64
	disallowed int64
	res        verify.Result
	checked    time.Time // when res was decided
	pending    bool
	// With Recorded: the pair's requests the guard recorded spoofed, the
	// disallowed ones of them, and the evidence of the first.
	spoofReq, spoofDis int64
	ev                 *verify.Evidence
}

// New returns an auditor, or an error when opts has no version.
func New(opts *Options) (*Auditor, error) {
	if opts != nil && opts.Recorded {
		if len(opts.Versions) > 0 {
			return nil, errors.New("audit: versions given to an audit of the verdicts a guard recorded: give one or the other")
		}
		if opts.Format != accesslog.Auto && opts.Format != accesslog.Guard {
			return nil, fmt.Errorf("%w (the format given is %v)", ErrNoVerdicts, opts.Format)
		}
	} else if opts == nil || len(opts.Versions) == 0 {
		return nil, errors.New("audit: no robots.txt version to judge by")
	}
	a := &Auditor{o: *opts}
	o := &a.o
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.TopPaths, DefaultTopPaths)
	def(&o.TopSpoofers, DefaultTopSpoofers)
	def(&o.TopAgents, DefaultTopAgents)
	def(&o.TopCounters, DefaultTopCounters)
	def(&o.MaxAgents, DefaultMaxAgents)
	def(&o.MaxPaths, DefaultMaxPaths)
	def(&o.MaxIPs, DefaultMaxIPs)
	def(&o.Workers, verify.DefaultConcurrency)
	a.cat = o.Catalogue
	if a.cat == nil {
		a.cat = defaultCatalogue()
	}
	for _, v := range opts.Versions {
		if v.Robots == nil {
			return nil, fmt.Errorf("audit: version %q has no parsed file", v.Source)
		}
	}
	a.versions = slices.Clone(opts.Versions)
	slices.SortStableFunc(a.versions, func(x, y Version) int { return x.From.Compare(y.From) })
	a.verRequests = make([]int64, len(a.versions))
	a.verDisallowed = make([]int64, len(a.versions))
	a.agents = map[string]int32{}
	a.crawlers = make([]*crawlerState, a.cat.Len())
	a.ips = map[string]*ipState{}
	a.unknown = newTopK(o.TopCounters)
	if o.Recorded {
		a.recVer = map[string]int{}
	}
	if o.Format != accesslog.Auto {
		p, err := accesslog.NewParser(o.Format, o.Fields)
		if err != nil {
			return nil, err
		}
		a.parser = p
	}
	a.ctx, a.cancel = context.WithCancel(context.Background())
	return a, nil
}

var (
	catOnce sync.Once
	catDef  *Catalogue
)

func defaultCatalogue() *Catalogue {
	catOnce.Do(func() { catDef = NewCatalogue(nil) })
	return catDef
}

// Format returns the log format read: Options.Format, or the one
// detected (Auto before the first line; with Recorded, the format of a
// log that is not the guard's, which is not read).
func (a *Auditor) Format() accesslog.Format {
	if a.parser == nil {
		return a.wrongFormat
	}
	return a.parser.Format()
}

// Sample is an unparsed line, quoted in the report.
type Sample struct {
	Line  int64  `json:"line"`
	Text  string `json:"text"` // at most 200 bytes of it
	Error string `json:"error"`
}

// Scan reads the log r line by line with AddLine, detecting the format
// from its first lines when Options.Format is Auto and none is detected
// yet. Lines longer than accesslog.MaxLineBytes count as unparsed. It
// stops at ctx's end or a read error.
func (a *Auditor) Scan(ctx context.Context, r *accesslog.Scanner) error {
	if a.parser == nil {
		if f := accesslog.Detect(r.Peek(50)); f != accesslog.Auto {
			if a.o.Recorded && f != accesslog.Guard {
				a.wrongFormat = f
				return a.formatErr()
			}
			a.parser, _ = accesslog.NewParser(f, a.o.Fields)
		}
	}
	n := 0
	for r.Scan() {
		if a.wrongFormat != accesslog.Auto {
			return a.formatErr()
		}
		if r.Long() {
			a.lines++
			a.unparse(nil, errLong)
			continue
		}
		a.AddLine(r.Bytes())
		if n++; n&0xfff == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if a.wrongFormat != accesslog.Auto {
		return a.formatErr()
	}
	return r.Err()
}

var errLong = fmt.Errorf("audit: a line longer than %d bytes", accesslog.MaxLineBytes)

// AddLine parses one log line and adds its request; a line that does not
// parse is counted (and the first MaxSamples quoted), a blank one is
// skipped.
func (a *Auditor) AddLine(line []byte) {
	if a.parser == nil {
		if len(bytes.TrimSpace(line)) == 0 {
			return // blank: nothing to detect (a log of newlines is read at speed)
		}
		f := accesslog.Detect([][]byte{line})
		if f == accesslog.Auto {
			a.lines++
			a.unparse(line, errors.New("audit: the log's format is not one the audit reads (combined, common, json, cloudflare, guard)"))
			return
		}
		if a.o.Recorded && f != accesslog.Guard {
			a.wrongFormat = f
			a.lines++
			a.unparse(line, a.formatErr())
			return
		}
		a.parser, _ = accesslog.NewParser(f, a.o.Fields)
	}
	err := a.parser.Parse(line, &a.entry)
	if err == accesslog.ErrEmpty {
		return
	}
	a.lines++
	if err != nil {
		a.unparse(line, err)
		return
	}
	a.Add(&a.entry)
}

func (a *Auditor) unparse(line []byte, err error) {
	a.unparsed++
	if len(a.samples) < MaxSamples {
		if len(line) > 200 {
			line = line[:200]
		}
		a.samples = append(a.samples, Sample{Line: a.lines, Text: string(bytes.ToValidUTF8(line, []byte("\uFFFD"))), Error: err.Error()})
	}
}

// Add adds one parsed request (e's slices are not kept).
func (a *Auditor) Add(e *accesslog.Entry) {
	a.requests++
	if e.Decision != nil {
		a.tallyDecision(e)
	}
	if a.o.Recorded {
		a.addRecorded(e)
		return
	}
	ci := a.identify(e.UserAgent)
	if ci < 0 {
		if ci == unknownBot && a.o.UnknownBots {
			a.unknown.add(clip(e.UserAgent))
		}
		return
	}
	cs := a.crawler(int(ci), e)
	path := pathOf(e.Target)
	disallowed := false
	vi := a.versionAt(e.Time)
	switch {
	case len(path) == 0:
		// Nothing to judge ("*", a garbled request line).
	case isRobotsTxt(path):
		cs.robotsTxt++
		a.robotsTxtAll++
	default:
		a.judged++
		a.verRequests[vi]++
		v := a.verdict(cs, vi, path)
		if d := e.Decision; d != nil && d.HasVerdict && isJudgedOutcome(d.Outcome) && string(d.Claimed) == cs.c.Name {
			a.g.compare(d.Allowed, v.allowed)
		}
		if !v.allowed {
			disallowed = true
			cs.disallowed++
			a.verDisallowed[vi]++
			a.key = append(append(a.key[:0], byte(vi>>8), byte(vi)), clip(path)...)
			if c, fresh := cs.top.add(a.key); fresh || c.line != int(v.line) {
				c.version, c.line, c.text = vi, int(v.line), v.text
			}
		}
	}
	a.track(int(ci), cs, e.IP, disallowed)
}

// crawler returns crawler ci's state, made when first seen, and counts
// e as its request.
func (a *Auditor) crawler(ci int, e *accesslog.Entry) *crawlerState {
	cs := a.crawlers[ci]
	if cs == nil {
		cs = &crawlerState{c: a.cat.Crawler(ci), top: newTopK(a.o.TopCounters)}
		if !a.o.Recorded {
			cs.deciders = make([]*robotstxt.Decider, len(a.versions))
			cs.verdicts = make([]map[string]verdict, len(a.versions))
			cs.oldVerd = make([]map[string]verdict, len(a.versions))
		}
		a.crawlers[ci] = cs
	}
	cs.requests++
	cs.answers[AnswerOf(e.Status)]++
	if !e.Time.IsZero() {
		if cs.first.IsZero() || e.Time.Before(cs.first) {
			cs.first = e.Time
		}
		if e.Time.After(cs.last) {
			cs.last = e.Time
		}
	}
	if d := e.Decision; d != nil {
		if e.Status != 0 {
			cs.blocked++
		}
		if !bytes.Equal(d.Action, d.Would) {
			cs.wouldBlock++
		}
	}
	return cs
}

func clip(b []byte) []byte {
	if len(b) > maxKey {
		return b[:maxKey]
	}
	return b
}

// pathOf returns the path and query of a request target: an absolute
// URL's without its scheme and host.
func pathOf(t []byte) []byte {
	if len(t) > 0 && t[0] == '/' {
		return t
	}
	for _, s := range [][]byte{[]byte("http://"), []byte("https://")} {
		if len(t) > len(s) && bytes.EqualFold(t[:len(s)], s) {
			rest := t[len(s):]
			if i := bytes.IndexAny(rest, "/?"); i >= 0 {
				if rest[i] == '/' {
					return rest[i:]
				}
				return append([]byte("/"), rest[i:]...)
			}
			return []byte("/")
		}
	}
	return nil
}

func isRobotsTxt(path []byte) bool {
	const p = "/robots.txt"
	return len(path) >= len(p) && string(path[:len(p)]) == p && (len(path) == len(p) || path[len(p)] == '?' || path[len(p)] == '#')
}

// identify returns the crawler index of a User-Agent header, cached.
func (a *Auditor) identify(ua []byte) int32 {
	if ci, ok := a.agents[string(ua)]; ok {
		return ci
	}
	if ci, ok := a.agentsOld[string(ua)]; ok {
		a.agents[string(clip(ua))] = ci
		return ci
	}
	s := string(clip(ua))
	ci := int32(a.cat.Identify(s))
	if ci < 0 {
		ci = noCrawler
		if BotLike(s) {
			ci = unknownBot
		}
	}
	if len(a.agents) >= a.o.MaxAgents/2 {
		a.agentsOld, a.agents = a.agents, make(map[string]int32, len(a.agents))
	}
	if len(ua) <= maxKey {
		a.agents[s] = ci
	}
	return ci
}

// versionAt returns the index of the version in force at t: the last
// whose From is not after t (the first for a time before every version
// or no time at all).
func (a *Auditor) versionAt(t time.Time) int {
	n := len(a.versions)
	if n == 1 {
		return 0
	}
	if t.IsZero() {
		return n - 1
	}
	if a.lastVerValid && !t.Before(a.lastLo) && t.Before(a.lastHi) {
		return a.lastVer
	}
	i := sort.Search(n, func(i int) bool { return a.versions[i].From.After(t) }) - 1
	if i < 0 {
		i = 0
	}
	a.lastVer, a.lastVerValid = i, true
	a.lastLo = a.versions[i].From
	if i == 0 {
		a.lastLo = time.Time{}
	}
	a.lastHi = farFuture
	if i+1 < n {
		a.lastHi = a.versions[i+1].From
	}
	return i
}

var farFuture = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// verdict returns crawler cs's verdict on path under version vi, cached.
func (a *Auditor) verdict(cs *crawlerState, vi int, path []byte) verdict {
	m := cs.verdicts[vi]
	if v, ok := m[string(path)]; ok {
		return v
	}
	if v, ok := cs.oldVerd[vi][string(path)]; ok {
		if len(m) < a.o.MaxPaths/2 {
			m[string(path)] = v
		}
		return v
	}
	d := cs.deciders[vi]
	if d == nil {
		d = a.versions[vi].Robots.Decider(robotstxt.Query{Crawler: cs.c})
		cs.deciders[vi] = d
	}
	dec := d.Decide(robotstxt.TargetURL(string(path)))
	v := verdict{allowed: dec.Allowed, line: int32(dec.Rule.Line), text: dec.Rule.Text}
	if len(path) > maxKey {
		return v
	}
	if m == nil {
		m = map[string]verdict{}
		cs.verdicts[vi] = m
	}
	if len(m) >= a.o.MaxPaths/2 {
		cs.oldVerd[vi] = m
		m = make(map[string]verdict, len(m))
		cs.verdicts[vi] = m
	}
	m[string(path)] = v
	return v
}

// track counts the request for its (crawler, address) pair, starting the
// pair's identity check when it is new.
func (a *Auditor) track(ci int, cs *crawlerState, ipText []byte, disallowed bool) {
	st, fresh, err := a.pairOf(ci, cs, ipText)
	if st == nil {
		return
	}
	if fresh {
		switch {
		case err != nil:
			st.res = verify.Result{Reason: "the log's client address does not parse"}
		case a.o.Verifier == nil:
			st.res = verify.Result{Reason: "no verification"}
		case !a.o.Verifier.NeedsDNS(st.ip, cs.c):
			st.res = a.o.Verifier.Check(a.ctx, st.ip, cs.c)
			st.checked = time.Now()
		default:
			st.pending = true
			a.startWorkers()
			select {
			case a.work <- st:
			case <-a.ctx.Done():
			}
		}
	}
	st.requests++
	if disallowed {
		st.disallowed++
	}
}

// pairOf finds the state of the (crawler, address) pair, made when fresh
// with err the address's parse error; nil when the pair is new and MaxIPs
// are tracked already (it is counted as untracked).
func (a *Auditor) pairOf(ci int, cs *crawlerState, ipText []byte) (st *ipState, fresh bool, err error) {
	a.key = append(append(a.key[:0], byte(ci>>8), byte(ci)), ipText...)
	if st, ok := a.ips[string(a.key)]; ok {
		return st, false, nil
	}
	if len(a.ips) >= a.o.MaxIPs {
		a.untracked++
		return nil, false, nil
	}
	ip, err := netip.ParseAddr(string(ipText))
	st = &ipState{ip: ip, crawler: ci}
	a.ips[string(a.key)] = st
	cs.ips++
	return st, true, err
}

func (a *Auditor) startWorkers() {
	if a.work != nil {
		return
	}
	work := make(chan *ipState, 4*a.o.Workers)
	a.work = work
	for range a.o.Workers {
		a.wg.Go(func() {
			for st := range work {
				// Only the worker writes st.res until finish's Wait.
				st.res = a.o.Verifier.Check(a.ctx, st.ip, a.cat.Crawler(st.crawler))
				st.checked = time.Now()
			}
		})
	}
}

// Close stops the identity checks still running; their pairs stay
// unverified. The report of an Auditor closed early may be partial.
func (a *Auditor) Close() {
	a.cancel()
	a.finish()
}

// finish waits for the identity checks started; Add starts workers
// again if it is called after.
func (a *Auditor) finish() {
	if a.work != nil {
		close(a.work)
		a.work = nil
		a.wg.Wait()
	}
}
