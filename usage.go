package robotstxt

import (
	"slices"
	"strings"
	"sync"
)

// A reading keeps its Content-Usage and Content-Signal lines as it finds
// them (aiLines: a group, a line, where the value is); the first question
// about usage compiles them per group (aiTable): each Content-Usage path
// normalised and classified as an Allow or Disallow pattern of the
// dialect is, and matched the same way, through a rule set of its own; each
// statement parsed once. Files without such lines keep one nil pointer.

// aiLine is a Content-Usage or Content-Signal line of a group.
type aiLine struct {
	group  int32
	line   int32
	off, n uint32 // the value is body[off:off+n]
	signal bool   // a Content-Signal line (else Content-Usage)
}

// aiLines are a reading's AI preference lines, and their table once built.
type aiLines struct {
	lines []aiLine
	once  sync.Once
	tab   *aiTable
}

// aiTable is the compiled AI preference lines of a reading, per group.
type aiTable struct {
	groups []aiGroup
}

// aiGroup is one group's Content-Usage rules and Content-Signal line.
type aiGroup struct {
	paths   *ruleSet    // the rules with a path, as patterns (nil when none)
	pathOf  []usageRule // per rule of paths, in order
	anyPath []usageRule // the rules without a path: every path, weight 0
	signals Signals     // its first Content-Signal line (Line 0: none)
}

// usageRule is a compiled Content-Usage rule.
type usageRule struct {
	line  int
	prefs []UsagePref // nil when the statement failed to parse
	lines []int       // {line}, shared by the answers it alone decides
}

// aiTable returns the reading's compiled AI preference lines, nil when it
// has none.
func (c *compiled) aiTable() *aiTable {
	if c.ai == nil {
		return nil
	}
	c.ai.once.Do(func() { c.ai.tab = c.buildAI() })
	return c.ai.tab
}

// splitUsage splits a Content-Usage value into its path and its statement
// of preference: a value starting with '/' starts with a path, which ends
// at the first SP or HTAB; the white space after it separates (the ABNF's
// 1*WS). Any other value is a statement alone.
func splitUsage(v string) (path, pref string) {
	if !strings.HasPrefix(v, "/") {
		return "", v
	}
	i := strings.IndexAny(v, " \t")
	if i < 0 {
		return v, ""
	}
	path, pref = v[:i], v[i:]
	for len(pref) > 0 && (pref[0] == ' ' || pref[0] == '\t') {
		pref = pref[1:]
	}
	return path, pref
}

func (c *compiled) buildAI() *aiTable {
	t := &aiTable{groups: make([]aiGroup, len(c.groups))}
	var arenas = make([]strings.Builder, len(c.groups))
	for _, l := range c.ai.lines {
		g := &t.groups[l.group]
		v := c.body[l.off : l.off+l.n]
		if l.signal {
			if g.signals.Line == 0 {
				g.signals = ParseContentSignal(v)
				g.signals.Line = int(l.line)
			}
			continue
		}
		path, pref := splitUsage(v)
		u := usageRule{line: int(l.line), lines: []int{int(l.line)}}
		if prefs, ok := ParseUsagePreference(pref); ok {
			u.prefs = prefs
		}
		if path == "" {
			g.anyPath = append(g.anyPath, u)
			continue
		}
		if g.paths == nil {
			g.paths = &ruleSet{body: c.body}
		}
		s := g.paths
		n := len(s.rules)
		s.rules = c.addRule(s.rules, rawRule{off: l.off, n: uint32(len(path)), line: uint32(l.line)}, &arenas[l.group])
		if s.rules[n].flags&ruleDead != 0 {
			s.rules = s.rules[:n] // a path no URL has
			continue
		}
		g.pathOf = append(g.pathOf, u)
	}
	for i := range t.groups {
		if s := t.groups[i].paths; s != nil {
			s.extra = arenas[i].String()
			s.nmatch = int32(len(s.rules))
		}
	}
	return t
}

// Usage is the AI usage preferences (IETF aipref Content-Usage rules) that
// apply to a URL the crawler may fetch: the statement of the Content-Usage
// rule of the crawler's groups with the longest path matching the URL, or
// the statements of all those with that longest path, combined key by key
// (see [CombineUsage]); a rule without a path matches every path with a
// path length of 0.
type Usage struct {
	// Prefs are the preferences the deciding rules state, in the order
	// their keys first appear; a key they do not name is unknown. Empty
	// when no rule applies or when the deciding statement failed to parse.
	Prefs []UsagePref
	// Lines are the deciding rules' lines, ascending; empty when none.
	Lines []int
}

// Get returns the preference for category key ("train-ai", "search", or
// another label): PrefUnknown when no deciding rule names it.
func (u Usage) Get(key string) Preference {
	for _, p := range u.Prefs {
		if p.Key == key {
			return p.Pref
		}
	}
	return PrefUnknown
}

// TrainAI returns the preference for AI model training.
func (u Usage) TrainAI() Preference { return u.Get(UsageTrainAI) }

// Search returns the preference for search.
func (u Usage) Search() Preference { return u.Get(UsageSearch) }

// UsageAnswer is what the file says a crawler may do with a URL: fetch it
// or not (the crawl decision, as [Robots.Decide] answers), and when it may,
// the usage preferences of its Content-Usage rules; with the Content-Signal
// line of the crawler's groups, which applies whatever the URL.
//
// Its slices may be shared with other answers: do not modify them.
type UsageAnswer struct {
	Allowed bool // the URL may be fetched
	Line    int  // the allow or disallow rule's line that decided, 0 when none
	// Usage holds the preferences when Allowed: preferences apply only
	// to URLs that may be crawled.
	Usage   Usage
	Signals Signals // Line 0 when the crawler's groups have no Content-Signal line
}

// Usage answers q with the crawler's usage preferences for q.URL beside the
// crawl decision: the groups are chosen as for Allow and Disallow (a group
// naming the crawler replaces '*'), in q's dialect. To ask about many URLs
// for one crawler, [Decider.Usage] prepares the question once and answers
// without allocating.
func (r *Robots) Usage(q Query) UsageAnswer {
	q.Explain = false
	return r.Decider(q).Usage(q.URL)
}

// Preferences returns the usage preferences the decider's groups state
// for url, whether or not the crawler may fetch it (Usage gives them only
// with the permission), and the groups' Content-Signal line: what the
// groups say, as a report of a group's preferences (the policy writer's
// of the '*' group) shows them. A file Yandex ignores states none.
func (p *Decider) Preferences(url string) (Usage, Signals) {
	if p.oversized {
		return Usage{}, Signals{}
	}
	p.usageOnce.Do(func() { p.usage = newGroupUsage(p.c, p.base.Group.Groups) })
	if p.usage == nil {
		return Usage{}, Signals{}
	}
	return p.usage.answer(usagePath(url, p.d)), p.usage.signals
}

// Usage answers for url as [Robots.Usage] does, for the decider's query.
// A file's usage table is built on its first usage question, and the
// decider's own rules (those of its groups, longest first) on its first.
func (p *Decider) Usage(url string) UsageAnswer {
	if p.oversized {
		return UsageAnswer{Allowed: true}
	}
	// The crawl decision, as decide makes it, without its words.
	path := usagePath(url, p.d)
	var a UsageAnswer
	if _, ok := p.fixed(path, p.base.Group.Kind); ok {
		a.Allowed = true
	} else {
		sets := p.sets
		if sets == nil {
			for _, id := range p.ids {
				sets = append(sets, p.c.set(id))
			}
		}
		win := p.winner(sets, path)
		a.Allowed = win.allows(p.d)
		if win.r != nil {
			a.Line = int(win.r.line)
		}
	}
	p.usageOnce.Do(func() { p.usage = newGroupUsage(p.c, p.base.Group.Groups) })
	g := p.usage
	if g == nil {
		return a
	}
	a.Signals = g.signals
	if a.Allowed {
		a.Usage = g.answer(path)
	}
	return a
}

// usagePath is decisionPath(url, d), found for Google's reading as Allowed
// finds it: one scan for the path's start, one for its end ('#' or NUL).
func usagePath(url string, d Dialect) string {
	if d == Google || d == Bing || d == Yandex {
		if p, slash := splitPathRaw(url); !slash {
			return cutPath(p)
		}
	}
	return decisionPath(url, d)
}

// groupUsage is the Content-Usage rules and Content-Signal line of the
// groups a decider chose, ready to answer: the rules with a path in one
// set, longest first, each with its answer; the answer of the rules
// without a path (weight 0), combined once.
type groupUsage struct {
	paths   ruleSet       // the rules with a path, by weight, longest first
	answers []Usage       // per rule of paths: its answer alone
	prefs   [][]UsagePref // per rule of paths: its statement, to combine ties
	lines   []int         // per rule of paths: its line
	anyPath Usage         // the rules without a path, combined
	signals Signals
}

// newGroupUsage gathers the usage lines of groups (file order), or returns
// nil when the file has none.
func newGroupUsage(c *compiled, groups []int) *groupUsage {
	t := c.aiTable()
	if t == nil {
		return nil
	}
	g := &groupUsage{signals: t.signals(groups)}
	var any []*usageRule
	type ref struct {
		r *crule
		u *usageRule
		s *ruleSet
	}
	var refs []ref
	for _, gi := range groups {
		tg := &t.groups[gi]
		for i := range tg.anyPath {
			any = append(any, &tg.anyPath[i])
		}
		if s := tg.paths; s != nil {
			for i := range s.rules {
				refs = append(refs, ref{&s.rules[i], &tg.pathOf[i], s})
			}
		}
	}
	g.anyPath = combined(any)
	// One set holding every path rule, by weight: each rule's pattern is
	// copied into the set's arena.
	slices.SortStableFunc(refs, func(a, b ref) int { return int(b.r.n) - int(a.r.n) })
	var arena strings.Builder
	for _, x := range refs {
		r := *x.r
		pat := x.s.pat(x.r)
		r.off = uint32(arena.Len())
		r.flags |= ruleExtra
		arena.WriteString(pat)
		g.paths.rules = append(g.paths.rules, r)
		g.answers = append(g.answers, Usage{Prefs: x.u.prefs, Lines: x.u.lines})
		g.prefs = append(g.prefs, x.u.prefs)
		g.lines = append(g.lines, x.u.line)
	}
	g.paths.body, g.paths.extra = c.body, arena.String()
	g.paths.nmatch = int32(len(g.paths.rules))
	return g
}

// combined is the answer of rules us together: their statements combined
// key by key, their lines ascending.
func combined(us []*usageRule) Usage {
	switch len(us) {
	case 0:
		return Usage{}
	case 1:
		return Usage{Prefs: us[0].prefs, Lines: us[0].lines}
	}
	st := make([][]UsagePref, 0, len(us))
	lines := make([]int, 0, len(us))
	for _, u := range us {
		st = append(st, u.prefs)
		lines = append(lines, u.line)
	}
	slices.Sort(lines)
	return Usage{Prefs: CombineUsage(st...), Lines: slices.Compact(lines)}
}

// answer returns the preferences for path: those of the longest matching
// path rule, or of all those of its length combined; else those of the
// rules without a path.
func (g *groupUsage) answer(path string) Usage {
	s := &g.paths
	rs := s.rules
	if len(rs) == 0 {
		return g.anyPath
	}
	p := newProbe(path, false)
	for i := range rs {
		r := &rs[i]
		if p.reject(r) || !s.matchRest(r, p.pathFor(r)) {
			continue
		}
		// The longest: alone, or with others of its length.
		var ties []int
		for j := i + 1; j < len(rs) && rs[j].n == r.n; j++ {
			if q := &rs[j]; !p.reject(q) && s.matchRest(q, p.pathFor(q)) {
				ties = append(ties, j)
			}
		}
		if ties == nil {
			return g.answers[i]
		}
		st := [][]UsagePref{g.prefs[i]}
		lines := []int{g.lines[i]}
		for _, j := range ties {
			st = append(st, g.prefs[j])
			lines = append(lines, g.lines[j])
		}
		slices.Sort(lines)
		return Usage{Prefs: CombineUsage(st...), Lines: slices.Compact(lines)}
	}
	return g.anyPath
}

// signals returns the first Content-Signal line of groups (in file order).
func (t *aiTable) signals(groups []int) Signals {
	for _, gi := range groups {
		if s := t.groups[gi].signals; s.Line != 0 {
			return s
		}
	}
	return Signals{}
}
