package tester

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
	"github.com/seed53c283f5/robotstxt/internal/utc"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/storeopen"
)

// Source is one robots.txt file the questions are asked of: bytes given
// (a file, a paste), or the answer of a live origin fetched through the
// cache. Make one with NewSource or Fetch. A Source may be asked from
// several goroutines at once.
type Source struct {
	// Name is the name reports show: a path, "standard input", or the
	// robots.txt URL of a fetched origin.
	Name string
	// Body is the bytes read: at most robotstxt.DefaultMaxBytes plus one
	// (so that a cut inside a line can be told). Empty when a fetch
	// policy, not rules, applies.
	Body []byte
	// Robots is Body parsed.
	Robots *robotstxt.Robots
	// Size is the file's size in bytes (when it is over
	// robotstxt.DefaultMaxBytes, as far as it was counted); CutLines
	// counts the line ends in what crawlers do not read, when known.
	Size     int64
	CutLines int
	// Fetched is set for a live origin's file: the fetch's policy, why
	// it applies, and where the answer came from. When its Policy is
	// not "rules", no file applies: Body is empty and the questions are
	// answered with the policy (allow all, disallow all).
	Fetched *FetchInfo

	// resp is the answer the fetch got, when every question is to be
	// read with its own crawler's fetch policy (a fetch with
	// DefaultDialect); answers holds what it means in each dialect asked
	// about.
	resp    *fetch.Response
	mu      sync.Mutex
	answers map[robotstxt.Dialect]*fetch.Answer
	// deciders are the questions of checks prepared (the groups chosen)
	// once per asker: a service asks one Source about the same crawlers
	// again and again. At most maxDeciders are kept.
	deciders map[deciderKey]*robotstxt.Decider
	// deciderBytes bounds what the kept deciders hold (see Footprint).
	deciderBytes atomic.Int64
	// noField is whether no line reads as a field, found once: a
	// service asks the same Source again and again.
	noField     bool
	noFieldOnce sync.Once
}

// NewSource returns the source of a robots.txt body given as bytes, named
// name. A body longer than robotstxt.DefaultMaxBytes is cut as crawlers
// cut it (Body keeps one byte more, to tell a cut inside a line); Size and
// CutLines say how much is not read. A caller that read only the start of
// a longer file sets Size and CutLines to the whole file's.
func NewSource(name string, body []byte) *Source {
	size := int64(len(body))
	cutLines := 0
	if len(body) > robotstxt.DefaultMaxBytes+1 {
		cutLines = bytes.Count(body[robotstxt.DefaultMaxBytes+1:], []byte{'\n'})
		body = body[:robotstxt.DefaultMaxBytes+1]
	}
	return &Source{Name: name, Body: body, Robots: robotstxt.Parse(body), Size: size, CutLines: cutLines}
}

// FetchInfo is what a live fetch of an origin's robots.txt found: its JSON
// form is what "robotstxt fetch --json" prints, and the "fetch" member of
// the other commands' JSON.
type FetchInfo struct {
	Origin       string          `json:"origin"`
	RobotsURL    string          `json:"robots_url"`
	Dialect      string          `json:"dialect"`    // whose fetch policy decided
	Policy       string          `json:"policy"`     // rules, allow-all or disallow-all
	Source       string          `json:"source"`     // network, cache or stale-cache
	Reason       string          `json:"reason"`     // why the policy applies
	Status       int             `json:"status"`     // the final answer's status; 0: none
	Bytes        int             `json:"bytes"`      // the body's length when rules apply
	Truncated    bool            `json:"truncated"`  // the body was cut at 500 KiB
	Trace        []fetch.Request `json:"trace"`      // every request, redirects included
	FetchedAt    string          `json:"fetched_at"` // RFC 3339, UTC
	ExpiresAt    string          `json:"expires_at"` // RFC 3339, UTC
	FailingSince string          `json:"failing_since,omitempty"`
	Error        string          `json:"error,omitempty"`
	// Refused says why this side refused to fetch the file, when it did
	// (a cache.Refusal: the service's address guard does not connect to
	// loopback or private addresses). The site was not asked: Policy is
	// disallow-all because nothing can be fetched from it here, not
	// because of anything it answered.
	Refused string `json:"refused,omitempty"`
	Store   string `json:"store"` // the cache's store: memory, bolt, redis...; "memory, in place of ..." when it fell back
	// Payment is what the final answer said about pay per crawl
	// (fetch.PaymentOfTrace), when it said something: a 402 is
	// "required", with its price when named. Absent otherwise.
	Payment *fetch.PaymentJSON `json:"payment,omitempty"`
}

// FetchOptions say how FetchInfoOf and Fetch ask the cache. The zero
// value (or nil) fetches the file as it is now.
type FetchOptions struct {
	// Cached takes the answer from the cache when it holds a fresh copy,
	// or a failure whose retry is not due, as a crawler does
	// (cache.Cache.GetOrigin). Without it the file is fetched now
	// (cache.Cache.RefreshOrigin, conditional when the cache holds a
	// copy): what a site owner who has just changed it wants to see. The
	// result is cached either way.
	Cached bool
}

// CacheKeyPrefix is the cache key prefix (cache.Options.KeyPrefix) that
// keeps the answers of each fetch policy apart in a store that outlives one
// run: Google's (the default) are keyed by origin alone, the others' by the
// dialect's name and the origin. Caches that the CLI and the service share
// use it, so that they share entries.
func CacheKeyPrefix(d robotstxt.Dialect) string {
	if d == robotstxt.DefaultDialect || d == robotstxt.Google {
		return ""
	}
	return d.String() + " "
}

// NeedsScheme reports whether a URL as typed is a bare host
// ("example.com", "example.com/a", "localhost:8080", "[::1]:8080"), which
// Fetch reads as https. "mailto:x" and other schemes are kept, and refused.
func NeedsScheme(s string) bool {
	if strings.Contains(s, "://") {
		return false
	}
	if strings.HasPrefix(s, "[") {
		return true
	}
	head, _, _ := strings.Cut(s, "/")
	_, after, found := strings.Cut(head, ":")
	return !found || after != "" && after[0] >= '0' && after[0] <= '9'
}

// FetchInfoOf fetches the robots.txt of rawURL's origin through c, with the
// fetch policy of c's fetcher, and reports what happened: by default the
// file as it is now, with o.Cached the cache's answer (see FetchOptions);
// info.Source says which it is. body is the robots.txt to obey when
// info.Policy is "rules", else nil (allow all or disallow all:
// info.Reason says why). A bare host means https. The error is for bad
// input (a URL with no origin: an *Error with Field "origin") or a
// failing cache; an unreachable site is no error.
func FetchInfoOf(ctx context.Context, c *cache.Cache, rawURL string, o *FetchOptions) (body []byte, info *FetchInfo, err error) {
	if NeedsScheme(rawURL) {
		rawURL = "https://" + rawURL
	}
	origin, err := fetch.OriginOf(rawURL)
	if err != nil {
		return nil, nil, &Error{Field: "origin", Value: rawURL, Msg: strings.TrimPrefix(err.Error(), "fetch: "), Err: err}
	}
	var a *cache.Answer
	if o != nil && o.Cached {
		a, err = c.GetOrigin(ctx, origin)
	} else {
		a, err = c.RefreshOrigin(ctx, origin)
	}
	if err != nil {
		return nil, nil, err
	}
	body, info = ReportAnswer(a, StoreName(c.Store()))
	return body, info, nil
}

// StoreName names st as reports do (FetchInfo.Store): its name ("memory",
// "bbolt /x/cache.db", ...), or "memory, in place of NAME" while it
// answers from memory because NAME cannot be used (Redis down, a locked
// file). The CLI and the service name their stores with it.
func StoreName(st store.Store) string {
	h := storeopen.Health(st)
	if h.Degraded && h.Name != "memory" {
		return "memory, in place of " + h.Name
	}
	if h.Degraded {
		return "memory"
	}
	return h.Name
}

// ReportAnswer reports a, the cache's answer about one origin, as
// FetchInfoOf does; storeName names the store that gave it ("memory",
// "bbolt /x/cache.db", ...). body is the robots.txt to obey when the
// policy is "rules", else nil. The service's GET /v1/fetch answers with it.
func ReportAnswer(a *cache.Answer, storeName string) (body []byte, info *FetchInfo) {
	info = &FetchInfo{
		Origin: a.Origin.String(), RobotsURL: a.Origin.RobotsURL(), Dialect: a.Dialect.String(),
		Policy: a.Policy.String(), Source: a.Source.String(), Reason: a.Reason, Status: a.Status,
		Truncated: a.Truncated, Trace: a.Trace, FetchedAt: utc.RFC3339(a.FetchedAt), ExpiresAt: utc.RFC3339(a.ExpiresAt),
		FailingSince: utc.RFC3339(a.FailingSince), Store: storeName,
	}
	if info.Trace == nil {
		info.Trace = []fetch.Request{}
	}
	if p := fetch.PaymentOfTrace(a.Status, a.Trace); !p.IsZero() {
		j := p.JSON()
		info.Payment = &j
	}
	if a.Err != nil {
		info.Error = a.Err.Error()
		var r cache.Refusal
		if errors.As(a.Err, &r) {
			// Not the site's answer: this side did not ask it.
			info.Refused = r.Refusal()
			info.Reason = "refused by this server: " + info.Refused
		}
	}
	if a.Policy == fetch.Rules && a.Robots != nil {
		body = []byte(a.Robots.Body())
		info.Bytes = len(body)
	}
	return body, info
}

// Fetch returns the source of the live robots.txt of rawURL's origin,
// fetched through c as o says (see FetchInfoOf), named by its robots.txt
// URL.
//
// c's fetcher has the fetch policy of dialect d. With d DefaultDialect the
// fetch is Google's (c must be a cache with Google's policy) and each
// question reads the same answer with its own crawler's fetch policy (the
// same code the fetcher decides with, fetch.Interpret): a 403 allows
// Google and blocks Baidu. With another d, every question gets d's policy.
func Fetch(ctx context.Context, c *cache.Cache, rawURL string, d robotstxt.Dialect, o *FetchOptions) (*Source, error) {
	body, info, err := FetchInfoOf(ctx, c, rawURL, o)
	if err != nil {
		return nil, err
	}
	return FetchedSource(body, info, d), nil
}

// FetchedSource returns the source of a fetch that FetchInfoOf reported,
// with the fetch policy of d as Fetch says.
func FetchedSource(body []byte, info *FetchInfo, d robotstxt.Dialect) *Source {
	size := len(body)
	if info.Truncated {
		size = len(body) + 1 // at least: the fetcher read one byte past its limit
	}
	f := &Source{Name: info.RobotsURL, Body: body, Robots: robotstxt.ParseWith(body, &robotstxt.ParseOptions{Size: size}),
		Size: int64(size), Fetched: info}
	if d == robotstxt.DefaultDialect && info.Source != "stale-cache" && info.Error == "" && info.Status != 0 {
		// One fetch with Google's policy, which keeps the body of every
		// 2xx answer; each question reads the answer with its own
		// crawler's policy. (A stale copy served after a failed refresh
		// is what every crawler keeps using, and no answer at all means
		// the same to every crawler: unreachable.)
		h := http.Header{}
		if n := len(info.Trace); n > 0 {
			h = info.Trace[n-1].AnswerHeader() // Content-Type, and a 402's price
		}
		resp := &fetch.Response{Status: info.Status, Header: h, Body: body, Size: size}
		// Unless the cache decided beside the status (an origin given
		// up on after a month unreachable: allowed), as cache.Answer.For
		// reads it.
		if p, _ := fetch.ParsePolicy(info.Policy); resp.Verdict(robotstxt.Google).Policy == p {
			f.resp = resp
		}
	}
	return f
}

// policyNotes say, for a file fetched without a dialect, which dialects'
// fetch policies read the answer otherwise than Google's, one note per
// policy ("for baidu, original: disallow all: 403 Forbidden: ...").
func (f *Source) policyNotes(ds []robotstxt.Dialect) []string {
	if !f.mixed(ds) {
		return nil
	}
	g := f.Answer(robotstxt.Google)
	var order []fetch.Policy
	who := map[fetch.Policy][]string{}
	why := map[fetch.Policy]string{}
	for _, d := range ds {
		a := f.Answer(d)
		if a.Policy == g.Policy {
			continue
		}
		if who[a.Policy] == nil {
			order = append(order, a.Policy)
			why[a.Policy] = a.Reason
		}
		who[a.Policy] = append(who[a.Policy], d.String())
	}
	var notes []string
	for _, p := range order {
		notes = append(notes, fmt.Sprintf("for %s: %s: %s", strings.Join(who[p], ", "), strings.ReplaceAll(p.String(), "-", " "), why[p]))
	}
	return notes
}

// mixed reports whether the fetch policies of dialects ds read the
// fetched answer as different policies (always false without perRow).
func (f *Source) mixed(ds []robotstxt.Dialect) bool {
	if !f.perRow() {
		return false
	}
	g := f.Answer(robotstxt.Google)
	for _, d := range ds {
		if f.Answer(d).Policy != g.Policy {
			return true
		}
	}
	return false
}

// perRow reports whether each question gets its own crawler's fetch
// policy: the file was fetched with DefaultDialect.
func (f *Source) perRow() bool { return f.resp != nil }

// Answer returns what the source means for questions in dialect d: for
// bytes given or a file fetched with a dialect, the one policy it has; for
// one fetched with DefaultDialect, the answer read with d's fetch policy.
func (f *Source) Answer(d robotstxt.Dialect) *fetch.Answer {
	if d == robotstxt.DefaultDialect {
		d = robotstxt.Google
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if a, ok := f.answers[d]; ok {
		return a
	}
	var a *fetch.Answer
	switch {
	case f.resp != nil:
		a = f.resp.Interpret(d)
	case f.Fetched != nil:
		p, _ := fetch.ParsePolicy(f.Fetched.Policy)
		a = &fetch.Answer{Dialect: d, Policy: p, Reason: f.Fetched.Reason}
	default:
		a = &fetch.Answer{Dialect: d, Policy: fetch.Rules}
	}
	if a.Policy == fetch.Rules && (f.resp == nil || f.Fetched.Policy == "rules") {
		a.Robots = f.Robots // parsed once, with the size the source had
	}
	if f.answers == nil {
		f.answers = map[robotstxt.Dialect]*fetch.Answer{}
	}
	f.answers[d] = a
	return a
}

// Policy returns how the source decides: "rules" for bytes given or a
// fetched file with rules to obey, else the fetch policy, "allow-all" or
// "disallow-all".
func (f *Source) Policy() string {
	if f.Fetched == nil {
		return "rules"
	}
	return f.Fetched.Policy
}

// Truncated reports whether crawlers read only the first
// robotstxt.DefaultMaxBytes of the file.
func (f *Source) Truncated() bool {
	return f.Robots.Truncated() || f.Fetched != nil && f.Fetched.Truncated
}

// fileNotes say what crawlers make of the file where the answers alone
// would hide it: a cut at 500 KiB (and Yandex's size rule).
func (f *Source) fileNotes() []string {
	var notes []string
	if f.Policy() == "rules" && len(bytes.TrimSpace(f.Body)) == 0 && !f.Truncated() {
		// An empty file (or blank lines alone) is a file with no rule.
		what := "the file is empty"
		if len(f.Body) > 0 {
			what = "the file holds only white space"
		}
		notes = append(notes, what+": it gives no rule, so every crawler may fetch every URL (every answer is \"allowed\"), as if there were no robots.txt")
	}
	if f.Policy() == "rules" && len(bytes.TrimSpace(f.Body)) > 0 {
		// What crawlers read from a file they cannot read: nothing
		// usable, so every answer is "allowed"; say why.
		switch {
		case bytes.HasPrefix(f.Body, []byte{0xFF, 0xFE}) || bytes.HasPrefix(f.Body, []byte{0xFE, 0xFF}):
			notes = append(notes, "the file is UTF-16: crawlers read it as bytes and find no usable rule in it, so every answer is \"allowed\"; save it as UTF-8")
		case f.hasNoField():
			notes = append(notes, "no line of the file reads as a robots.txt field (user-agent, allow, disallow, sitemap...): crawlers find nothing usable in it, so every answer is \"allowed\"")
		}
	}
	if f.Truncated() {
		notes = append(notes, fmt.Sprintf("the file is over %d bytes: only the first %d are read, as crawlers read them; %s: everything is allowed for Yandex crawlers",
			robotstxt.DefaultMaxBytes, robotstxt.DefaultMaxBytes, robotstxt.OversizedReason))
	}
	return notes
}

// hasNoField reports whether no line of the file reads as a field, in
// Google's reading.
func (f *Source) hasNoField() bool {
	f.noFieldOnce.Do(func() { f.noField = !hasField(f.Robots) })
	return f.noField
}

// hasField reports whether any line of r reads as a field, in Google's
// reading.
func hasField(r *robotstxt.Robots) bool {
	for _, l := range r.Lines() {
		if l.Field != robotstxt.FieldNone && l.Field != robotstxt.FieldUnknown {
			return true
		}
	}
	return false
}

// originNotes say, for a file fetched from a site, which of the URLs asked
// about are on another origin: its rules do not govern them (docs/protocol.md, Scope;
// Yandex's tester says "URL does not belong to your domain").
func (f *Source) originNotes(urls []string) []string {
	if f.Fetched == nil {
		return nil
	}
	var notes []string
	for _, u := range urls {
		if !strings.Contains(u, "://") {
			continue // a path: on the file's origin
		}
		if o, err := fetch.OriginOf(u); err != nil || o.String() != f.Fetched.Origin {
			notes = append(notes, fmt.Sprintf("%s is not on %s: this robots.txt does not govern it (the answers below are what it would say)", u, f.Fetched.Origin))
		}
	}
	return notes
}

// fetchNotes say, for a file fetched from a site, where the answer came from
// and, when no rules apply, what applies instead: one line each. They are
// nil for bytes given.
//
// Questions asked in dialects ds whose fetch policies read the answer
// differently (a fetch with DefaultDialect) get a note saying that each row
// has its own.
func (f *Source) fetchNotes(ds ...robotstxt.Dialect) []string {
	i := f.Fetched
	if i == nil {
		return nil
	}
	if i.Refused != "" {
		return []string{fmt.Sprintf("not fetched: %s", i.Reason),
			"the site was not asked: everything is answered as disallowed"}
	}
	src := fetchedWhen(i)
	if f.mixed(ds) {
		return []string{fmt.Sprintf("%s (store: %s): %s", src, i.Store, i.Reason),
			"each crawler's own engine reads this answer (its fetch policy, row by row); -d sets one for all"}
	}
	notes := []string{fmt.Sprintf("%s with the %s fetch policy (store: %s): %s", src, i.Dialect, i.Store, i.Reason)}
	switch i.Policy {
	case "allow-all":
		notes = append(notes, "no robots.txt rules apply: everything is allowed")
	case "disallow-all":
		notes = append(notes, "no robots.txt rules apply: everything is disallowed")
	}
	return notes
}

// fetchedWhen says where a fetch's answer came from: "fetched now", "from
// the cache (fetched at T)", or "from the cache (fetched at T; stale: the
// refresh failed)", T in RFC 3339, UTC.
func fetchedWhen(i *FetchInfo) string {
	switch i.Source {
	case "network":
		return "fetched now"
	case "stale-cache":
		return "from the cache (fetched at " + i.FetchedAt + "; stale: the refresh failed)"
	}
	return "from the cache (fetched at " + i.FetchedAt + ")"
}

// deciderKey is a question of a check without its URL: the answer it
// reads, and who asks in which dialect.
type deciderKey struct {
	a       *fetch.Answer
	crawler string // the crawler's name, or ""
	agents  string // the tokens, each followed by a NUL
	dialect robotstxt.Dialect
	explain bool
}

// maxDeciders bounds the deciders a Source keeps.
const maxDeciders = 64

// decider returns a's robots.txt prepared for q (with its URL ignored): a
// kept one, or a new one, kept while there is room. a must be one of f's
// answers, with rules.
func (f *Source) decider(a *fetch.Answer, q robotstxt.Query) *robotstxt.Decider {
	k := deciderKey{a: a, dialect: q.Dialect, explain: q.Explain}
	if q.Crawler != nil {
		k.crawler = q.Crawler.Name
	} else if len(q.Agents) == 1 {
		k.agents = q.Agents[0] + "\x00"
	} else if len(q.Agents) > 1 {
		k.agents = strings.Join(q.Agents, "\x00") + "\x00"
	}
	f.mu.Lock()
	d := f.deciders[k]
	f.mu.Unlock()
	if d != nil {
		return d
	}
	// The decider is kept: it must not hold the caller's strings (a
	// request's body, say) alive.
	q.Agents = slices.Clone(q.Agents)
	for i := range q.Agents {
		q.Agents[i] = strings.Clone(q.Agents[i])
	}
	d = a.Robots.Decider(q)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.deciders == nil {
		f.deciders = map[deciderKey]*robotstxt.Decider{}
	}
	if len(f.deciders) < maxDeciders {
		f.deciders[k] = d
		f.deciderBytes.Add(deciderWeight(d))
	}
	return d
}

// deciderWeight bounds what a kept decider holds beside the file's
// readings (which Robots.Footprint counts, the usage table too): the
// decider, the groups and lines it chose, its rule sets, and its usage
// answer's state (which of its groups have usage rules). Its strings
// point into the file or are the asker's, cloned.
func deciderWeight(d *robotstxt.Decider) int64 {
	g := d.Decide("/").Group
	n := int64(len(g.Groups) + len(g.Lines))
	return 1024 + 2*int64(len(g.Token)) + 64*n
}

// Footprint bounds the bytes the source keeps: its body, the file parsed
// with what its questions build (robotstxt.Robots.Footprint: the usage
// table too), and the deciders it keeps for the askers that come back
// (at most 64). It grows as readings and deciders are built: a cache that
// keeps sources weighs them again after each use.
func (f *Source) Footprint() int64 {
	n := int64(cap(f.Body)) + f.deciderBytes.Load() + 512
	if f.Robots != nil {
		n += f.Robots.Footprint()
	}
	return n
}
