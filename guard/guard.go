package guard

import (
	"context"
	"errors"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/audit"
	"github.com/seed53c283f5/robotstxt/clientip"
	"github.com/seed53c283f5/robotstxt/verify"
)

// Options configures a Guard.
type Options struct {
	// Robots gives the robots.txt in force per host. Required.
	Robots RobotsSource
	// Policy says what to do with each outcome; nil: DefaultPolicy (mode
	// log: decide and record, block nothing).
	Policy *Policy
	// Identity checks a crawler's claim; nil: every claim is unverified.
	// verify.Identifier is one; it must not block beyond its deadline.
	Identity Identity
	// Decisions receives each decision the policy's Record keeps; nil:
	// none kept. It must not block (FileSink does not).
	Decisions DecisionSink
	// Metrics registers the guard's Prometheus metrics; nil: none.
	Metrics prometheus.Registerer
	// Now is the clock; nil: time.Now.
	Now func() time.Time
	// TrustedProxies are the addresses of proxies in front of the guard
	// whose X-Forwarded-For (then X-Real-IP) is believed: the client is
	// the right-most address of it that is not one of them, as
	// clientip.Of reads it (clientip.Parse reads a list of them). Empty:
	// the connection's address is the client.
	TrustedProxies []netip.Prefix
	// Crawlers is the catalogue claims are read against; nil:
	// robotstxt.Crawlers().
	Crawlers []robotstxt.Crawler
	// MaxRules bounds the robots.txt versions prepared at once (default
	// DefaultMaxRules); MaxPaced the (crawler, host) pairs whose last
	// request time is kept for Crawl-delay (default DefaultMaxPaced).
	// Past either, the table starts again empty.
	MaxRules int
	MaxPaced int
}

// The bounds of a guard's tables.
const (
	DefaultMaxRules = 256
	DefaultMaxPaced = 16384
	// maxHostKey bounds the host a pace is kept under: longer Host
	// headers (no DNS name is longer than 253 bytes) share one key.
	maxHostKey = 255
)

// Identity answers whether a request is the crawler it claims to be:
// verify.Identifier provides it. Identify must answer at once from what
// it knows (an identity not yet known is unverified), never wait on a
// slow lookup beyond its stated deadline.
type Identity interface {
	Identify(ctx context.Context, r *http.Request, ip netip.Addr, c *robotstxt.Crawler) verify.Evidence
}

// DecisionSink receives decisions to record. Record must not block.
type DecisionSink interface {
	Record(d Decision)
}

// Guard decides, for each request, what the site's robots.txt and usage
// preferences say of the crawler it claims to be, and acts by its
// policy. It is safe for concurrent use.
type Guard struct {
	src      RobotsSource
	id       Identity
	sink     DecisionSink
	now      func() time.Time
	trusted  clientip.Trusted
	cat      *audit.Catalogue
	crawlers []robotstxt.Crawler

	ua      uaCache
	pol     atomic.Pointer[compiledPolicy]
	prep    preparedCache
	pace    paceTable
	met     *metrics
	tarpits atomic.Int64
}

// compiledPolicy is a policy with its action per outcome worked out for
// each crawler of the catalogue.
type compiledPolicy struct {
	p    *Policy
	acts []Actions
	// price is the crawler-price header's value, built once; nil when
	// the policy names no price.
	price []string
}

// Build returns a guard for o.
func Build(o Options) (*Guard, error) {
	if o.Robots == nil {
		return nil, errors.New("guard: Options.Robots is required: the robots.txt to enforce")
	}
	g := &Guard{src: o.Robots, id: o.Identity, sink: o.Decisions, now: o.Now, trusted: clientip.Trusted(o.TrustedProxies)}
	if g.now == nil {
		g.now = time.Now
	}
	g.cat = audit.NewCatalogue(o.Crawlers)
	g.crawlers = make([]robotstxt.Crawler, g.cat.Len())
	for i := range g.crawlers {
		g.crawlers[i] = *g.cat.Crawler(i)
	}
	g.prep.max = o.MaxRules
	if g.prep.max <= 0 {
		g.prep.max = DefaultMaxRules
	}
	g.pace.max = o.MaxPaced
	if g.pace.max <= 0 {
		g.pace.max = DefaultMaxPaced
	}
	g.SetPolicy(o.Policy)
	if o.Metrics != nil {
		m, err := newMetrics(o.Metrics, g)
		if err != nil {
			return nil, err
		}
		g.met = m
	}
	return g, nil
}

// New returns the guard's middleware for o: guard.New(o) wraps any
// http.Handler.
func New(o Options) (func(http.Handler) http.Handler, error) {
	g, err := Build(o)
	if err != nil {
		return nil, err
	}
	return g.Handler, nil
}

// SetPolicy makes p the policy (nil: DefaultPolicy); the next request
// reads it.
func (g *Guard) SetPolicy(p *Policy) {
	if p == nil {
		p = DefaultPolicy()
	}
	cp := &compiledPolicy{p: p, acts: make([]Actions, len(g.crawlers))}
	if p.Price != "" {
		cp.price = []string{p.Price}
	}
	for i := range g.crawlers {
		for o := Outcome(0); o < numOutcomes; o++ {
			cp.acts[i][o] = p.ActionFor(&g.crawlers[i], o)
		}
	}
	g.pol.Store(cp)
}

// Policy returns the policy in force.
func (g *Guard) Policy() *Policy { return g.pol.Load().p }

// Handler returns next behind the guard: a request the policy blocks is
// answered by the guard and never reaches next.
func (g *Guard) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d := g.Decide(r)
		if g.Respond(w, r, &d) {
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Decide decides what the guard does with r, and records it (the
// decision log, the metrics, the crawler's pace): Handler's decision,
// for a decision endpoint that answers for another server. It does not
// answer r: Respond does.
func (g *Guard) Decide(r *http.Request) Decision {
	cp := g.pol.Load()
	p := cp.p
	d := Decision{
		Time: g.now(), Addr: g.clientAddr(r), Method: r.Method,
		Host: hostOf(r.Host), Path: requestPath(r), UserAgent: r.Header.Get("User-Agent"),
		Allowed: true, Mode: p.Mode,
	}
	ci := g.ua.identify(g.cat, d.UserAgent)
	if isRulesPath(d.Path) {
		d.Outcome, d.Reason = OutcomeRulesPath, "the rules are always served"
	} else if ci < 0 {
		d.Outcome, d.Reason = OutcomeNotCrawler, "no known crawler claimed"
	}
	if ci < 0 {
		d.Would, d.Action = ActionAllow, ActionAllow
		g.finish(cp, -1, &d)
		return d
	}
	c := &g.crawlers[ci]
	d.Claimed = c.Name
	if g.id != nil {
		d.Identity = g.id.Identify(r.Context(), r, d.Addr, c)
	} else {
		d.Identity = verify.Evidence{Crawler: c.Name, Outcome: outcomeUnverified, Method: verify.MethodNone, Reason: "no identity check configured", Checked: d.Time}
	}
	rules, err := g.src.Robots(r.Context(), d.Host)
	var v *view
	if err == nil && rules != nil && rules.Robots != nil {
		pr := g.prep.get(rules, len(g.crawlers))
		d.Version = rules.Version
		if d.Outcome != OutcomeRulesPath && pr.sitemap(d.Host, d.Path) {
			d.Outcome, d.Reason = OutcomeRulesPath, "a sitemap the robots.txt names"
		}
		v = pr.view(ci, c)
	} else if d.Outcome != OutcomeRulesPath {
		d.Reason = "no robots.txt in force"
		if err != nil {
			d.Reason += ": " + err.Error()
		}
	}
	// interval is the crawler's pace on this host: a request that
	// reaches the site (whatever its outcome) counts as its visit.
	var wait, interval time.Duration
	if d.Outcome != OutcomeRulesPath {
		g.judge(&d, v)
		if v != nil {
			interval = v.pace.Interval(d.Time)
		}
		if interval > 0 && d.Outcome == OutcomePass {
			if wait = g.pace.wait(ci, d.Host, d.Time, interval); wait > 0 {
				d.Outcome = OutcomeOverCrawlDelay
				d.Line, d.LineText = v.pace.CrawlDelayLine, v.delayText
				d.Reason = "back sooner than the crawl-delay asks"
			}
		}
	}
	d.Would = cp.acts[ci][d.Outcome]
	d.Action = d.Would
	if p.Mode == ModeLog && d.Would != ActionAllow {
		d.Action = ActionLog
	}
	switch d.Action {
	case Action403, ActionTarpit:
		d.Status = http.StatusForbidden
	case Action402:
		d.Status, d.Price = http.StatusPaymentRequired, p.Price
	case Action429:
		d.Status = http.StatusTooManyRequests
		d.RetryAfter = retrySeconds(wait, interval)
	}
	if interval > 0 && !d.Action.Blocks() {
		g.pace.admit(ci, d.Host, d.Time)
	}
	g.finish(cp, ci, &d)
	return d
}

// outcomeUnverified is verify's word for a claim no check decided.
var outcomeUnverified = verify.Unverified.String()
var outcomeVerified = verify.Verified.String()
var outcomeSpoofed = verify.Spoofed.String()

// judge sets d's outcome from the claim's identity, the robots.txt
// verdict and the usage preferences (v nil: no robots.txt).
func (g *Guard) judge(d *Decision, v *view) {
	if d.Identity.Outcome == outcomeSpoofed {
		d.Outcome = OutcomeSpoofed
		d.Reason = "the identity check says the client is not " + d.Claimed
		if v == nil {
			return
		}
	}
	if v == nil {
		return
	}
	dec := v.dec.Decide(robotstxt.TargetURL(d.Path))
	d.Allowed = dec.Allowed
	d.Line, d.LineText = dec.Rule.Line, dec.Rule.Text
	if d.Outcome == OutcomeSpoofed {
		return
	}
	d.Reason = dec.Reason
	switch {
	case !dec.Allowed && d.Identity.Outcome == outcomeVerified:
		d.Outcome = OutcomeDisallowedVerified
	case !dec.Allowed:
		d.Outcome = OutcomeDisallowedUnverified
	case v.uses != 0:
		if line, why := v.refused(d.Path); line != 0 {
			d.Outcome, d.Reason = OutcomePreferenceRefused, why
			d.Line, d.LineText = line, v.lineText(line)
		}
	}
}

// finish records d and counts it.
func (g *Guard) finish(cp *compiledPolicy, ci int, d *Decision) {
	if g.met != nil {
		g.met.count(ci, d.Outcome, d.Action)
	}
	if g.sink == nil {
		return
	}
	switch cp.p.Record {
	case RecordCrawlers:
		if d.Claimed == "" {
			return
		}
	case RecordActed:
		if d.Would == ActionAllow {
			return
		}
	}
	rec := *d
	rec.UserAgent, rec.Path, rec.Host = clip(rec.UserAgent), clip(rec.Path), clip(rec.Host)
	g.sink.Record(rec)
}

// MaxLoggedField bounds the User-Agent, path and host a recorded
// decision keeps (a client may send a megabyte of each): longer ones are
// cut, and copied so that the request's memory is not held by the log's
// queue.
const MaxLoggedField = 1024

func clip(s string) string {
	if len(s) <= MaxLoggedField {
		return s
	}
	return strings.Clone(s[:MaxLoggedField])
}

// retrySeconds is a 429's Retry-After: the wait left, else the interval,
// else a minute; at least 1.
func retrySeconds(wait, interval time.Duration) int {
	d := wait
	if d <= 0 {
		d = interval
	}
	if d <= 0 {
		return 60
	}
	s := int((d + time.Second - 1) / time.Second)
	return max(s, 1)
}

// isRulesPath reports whether path is /robots.txt or under /.well-known/.
func isRulesPath(path string) bool {
	if strings.HasPrefix(path, "/.well-known/") {
		return true
	}
	p := path
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	return p == "/robots.txt"
}

// requestPath is the path and query r asked for, as sent.
func requestPath(r *http.Request) string {
	u := r.RequestURI
	if u != "" && u[0] == '/' {
		return u
	}
	// The absolute form: the path after the authority.
	if i := strings.Index(u, "://"); i > 0 && r.URL != nil && r.URL.Host != "" {
		rest := u[i+3:]
		if j := strings.IndexAny(rest, "/?"); j >= 0 && rest[j] == '/' {
			return rest[j:]
		}
	}
	if r.URL == nil {
		return "/"
	}
	return r.URL.RequestURI()
}

// hostOf is a Host header without its port, lower-cased.
func hostOf(h string) string {
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.Contains(h[i:], "]") {
		h = h[:i]
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	for i := 0; i < len(h); i++ {
		if 'A' <= h[i] && h[i] <= 'Z' {
			return strings.ToLower(h)
		}
	}
	return h
}

// clientAddr is the client's address, as clientip.Of decides it for
// every face: the connection's, or what a trusted proxy forwards.
func (g *Guard) clientAddr(r *http.Request) netip.Addr {
	return clientip.Of(r, g.trusted)
}
