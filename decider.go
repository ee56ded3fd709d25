package robotstxt

import (
	"strconv"
	"strings"
	"sync"
)

// A Decider answers many URLs for one asker: a [Query] prepared once.
// Which groups apply to a crawler (and why, the lines that chose them, the
// crawl-delay) does not depend on the URL, so a Decider works it out when
// it is made, and each call of Decide only matches the URL's path, as
// [Robots.Decide] would with the same query and that URL.
//
// The Group of every Decision a Decider gives is the same value: its Lines
// and Groups slices are shared between the decisions and must be read
// only. A Decider is safe for concurrent use.
type Decider struct {
	r       *Robots
	c       *compiled
	d       Dialect
	explain bool
	// oversized: the dialect reads the file as no rules at all.
	oversized bool
	skip      uint8
	// base is the part of every decision that does not depend on the URL:
	// the dialect, the group chosen and the crawl-delay.
	base Decision
	ids  []int32    // the rule sets that hold the chosen groups
	sets []*ruleSet // the same, compiled (nil: compiled at each decision)

	// The chosen groups' Content-Usage rules and Content-Signal line,
	// prepared on the first usage question (see usage.go).
	usageOnce sync.Once
	usage     *groupUsage
}

// Decider prepares q for many URLs: q.URL is ignored; the other fields
// mean what they mean for [Robots.Decide]. d.Decide(url) returns what
// r.Decide with q and that URL returns.
func (r *Robots) Decider(q Query) *Decider {
	p := new(Decider)
	r.prepare(p, q)
	if len(p.ids) > 0 {
		p.sets = make([]*ruleSet, len(p.ids))
		for i, id := range p.ids {
			p.sets[i] = p.c.set(id)
		}
	}
	return p
}

// Dialect returns the dialect the decider reads the file in.
func (p *Decider) Dialect() Dialect { return p.d }

// prepare works out the part of q's answers that does not depend on the URL.
func (r *Robots) prepare(p *Decider, q Query) {
	d := q.ReadsIn()
	*p = Decider{r: r, c: r.compiledFor(d), d: d, explain: q.Explain}
	p.base.Dialect = d
	if d.IgnoresOversized() && r.size > DefaultMaxBytes {
		p.oversized = true
		p.base.Allowed = true
		p.base.Group.Reason = "no group: the file is not read"
		p.base.Reason = OversizedReason + " (this one is " + strconv.Itoa(r.size) + " bytes): everything is allowed"
		return
	}
	p.base.Group, p.ids = p.c.choose(q, d)
	p.c.crawlDelay(&p.base, d)
	if d == Yandex {
		p.skip = ruleIndexHTM // Google's index.htm rule is Google's alone
	}
}

// Decide answers for url (an absolute URL or a path starting with '/',
// taken as given: see NormalizeURL) and says what decided it.
func (p *Decider) Decide(url string) Decision {
	dec := p.base
	if p.oversized {
		dec.Path = decisionPath(url, p.d)
		return dec
	}
	p.decide(&dec, url)
	return dec
}

// decisionPath is the part of url the rules of dialect d match.
func decisionPath(url string, d Dialect) string {
	path := PathParamsQuery(url)
	switch d {
	case Google, Bing, Yandex:
		if i := strings.IndexByte(path, 0); i >= 0 {
			path = path[:i]
		}
	case RFC9309:
		path = normalizeRFC(path, true)
	case Original:
		path = decodeOriginal(path)
	case Baidu:
		path = decodeBaidu(path, true)
	}
	return path
}

// decide fills in the per-URL part of dec, which holds p.base.
func (p *Decider) decide(dec *Decision, url string) {
	d := p.d
	path := decisionPath(url, d)
	dec.Path = path
	if reason, ok := p.fixed(path, dec.Group.Kind); ok {
		dec.Allowed = true
		dec.Reason = reason
		return
	}
	sets := p.sets
	if sets == nil {
		// One decision (Robots.Decide): the sets compiled now, on the
		// stack when they are few.
		var buf [4]*ruleSet
		sets = buf[:0]
		for _, id := range p.ids {
			sets = append(sets, p.c.set(id))
		}
	}
	var win hit
	var hits []hit
	if p.explain {
		// Every rule that matches: the winner is the first of them in
		// precedence order, found without matching again.
		hits = matchHits(sets, path, p.skip)
		for _, h := range hits {
			if win.r == nil || h.s.before(h.r, win.r) {
				win = h
			}
		}
	} else {
		win = p.winner(sets, path)
	}
	dec.Allowed = win.allows(d)
	if win.r == nil {
		dec.Reason = "no rule matches: allowed"
	}
	if win.r != nil {
		m := p.r.ruleMatch(win)
		dec.Rule = m
		switch {
		case d.FirstMatch():
			dec.Reason = intText("the first matching rule, line ", m.Line, ", ", verdictWord(dec.Allowed))
		case win.r.n == 0:
			dec.Reason = intText("only an empty rule matches (line ", m.Line, "), with weight 0: allowed", "")
		default:
			dec.Reason = intText("the longest matching rule, line ", m.Line, ", ", verdictWord(dec.Allowed))
		}
	}
	if p.explain {
		dec.Matches = p.r.explain(hits, win.r, d)
	}
}

// fixed returns the answer's reason when no rule decides for path: the
// dialect always allows /robots.txt itself, or no group applies (kind).
func (p *Decider) fixed(path string, kind GroupKind) (reason string, ok bool) {
	d := p.d
	switch {
	case d.RobotsTxtAllowed() && (path == "/robots.txt" || d == RFC9309 && strings.HasPrefix(path, "/robots.txt?")):
		return "/robots.txt itself is always allowed in the " + d.String() + " dialect", true
	case kind == GroupNone:
		return "no group applies: everything is allowed", true
	}
	return "", false
}

// winner returns the deciding rule of sets for path, in precedence order.
func (p *Decider) winner(sets []*ruleSet, path string) hit {
	var win hit
	for _, s := range sets {
		if r := s.decide(path, p.skip); r != nil && (win.r == nil || s.before(r, win.r)) {
			win = hit{s, r}
		}
	}
	return win
}
