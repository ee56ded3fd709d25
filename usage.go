package robotstxt

import (
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// A reading keeps its Content-Usage and Content-Signal lines as it finds
// them (aiLines: a group, a line, where the value is); the first question
// about usage compiles them per group (aiTable): each Content-Usage path
// normalised and classified as an Allow or Disallow pattern of the
// dialect is, and matched the same way, through a rule set of its own; each
// statement parsed once. Files without such lines keep one nil pointer.

// aiLine is a Content-Usage or Content-Signal line of a group, or a
// Signature-Agent or Max-Crawl-Rate line (read with ExtWebBotAuth).
type aiLine struct {
	group  int32
	line   int32
	off, n uint32 // the value is body[off:off+n]
	kind   aiKind
}

// aiKind is what an aiLine is.
type aiKind uint8

const (
	aiUsage     aiKind = iota // Content-Usage
	aiSignal                  // Content-Signal
	aiSigAgent                // Signature-Agent
	aiCrawlRate               // Max-Crawl-Rate
)

// aiLines are a reading's AI preference lines, and their table once built.
type aiLines struct {
	lines []aiLine
	once  sync.Once
	tab   *aiTable
}

// aiTable is the compiled AI preference lines of a reading, per group. It
// is built once, on the first usage question, and shared by every decider
// of the reading: a decider keeps only which groups it reads (see
// groupUsage), so that the rules are kept once per file, however many
// crawlers ask.
type aiTable struct {
	groups []aiGroup
}

// aiGroup is one group's Content-Usage rules and Content-Signal line.
type aiGroup struct {
	// paths are the rules with a path, as patterns, longest first (file
	// order among rules of one length): nil when none. A set of more
	// than bigSet rules is searched through its index once questions
	// have cost more than building it (see ruleSet.coldScan).
	paths   *ruleSet
	answers []Usage // per rule of paths, in its order: its answer alone
	anyPath Usage   // the rules without a path (weight 0), combined
	nany    int     // how many rules have no path
	signals Signals // its first Content-Signal line (Line 0: none)
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

// usageStatement parses the statement of a Content-Usage rule: nil when
// it fails to parse. The list is cut to its length: it is kept.
func usageStatement(pref string) []UsagePref {
	prefs, ok := ParseUsagePreference(pref)
	if !ok {
		return nil
	}
	return slices.Clip(prefs)
}

func (c *compiled) buildAI() *aiTable {
	t := &aiTable{groups: make([]aiGroup, len(c.groups))}
	// Count first, so that every array is allocated once, to its size.
	npath := make([]int32, len(c.groups))
	for _, l := range c.ai.lines {
		if l.kind != aiUsage {
			continue
		}
		if path, _ := splitUsage(c.body[l.off : l.off+l.n]); path != "" {
			npath[l.group]++
		} else {
			t.groups[l.group].nany++
		}
	}
	// One array of lines for every rule's answer ({line} each), and the
	// statements of the rules without a path, to combine per group.
	lineBuf := make([]int, 0, len(c.ai.lines))
	type ruleAt struct {
		r crule
		u Usage
	}
	var rules []ruleAt
	var anyOf [][]UsagePref
	var anyLines []int
	var one []crule
	arena := strings.Builder{}
	flush := func(gi int) {
		g := &t.groups[gi]
		if len(rules) > 0 {
			// Longest first; file order among rules of one length.
			slices.SortStableFunc(rules, func(a, b ruleAt) int { return int(b.r.n) - int(a.r.n) })
			s := &ruleSet{body: c.body, rules: make([]crule, len(rules))}
			g.answers = make([]Usage, len(rules))
			wild := 0
			for i := range rules {
				s.rules[i] = rules[i].r
				g.answers[i] = rules[i].u
				if rules[i].r.flags&ruleWild != 0 {
					wild++
				}
			}
			s.extra = arena.String()
			s.nmatch, s.nwild = int32(len(rules)), int32(wild)
			g.paths = s
		}
		g.anyPath = combinedUsage(anyOf, anyLines)
		rules, anyOf, anyLines = rules[:0], anyOf[:0], anyLines[:0]
		arena = strings.Builder{}
	}
	lines := c.ai.lines
	if !slices.IsSortedFunc(lines, func(a, b aiLine) int { return int(a.group) - int(b.group) }) {
		lines = slices.Clone(lines)
		slices.SortStableFunc(lines, func(a, b aiLine) int { return int(a.group) - int(b.group) })
	}
	cur := -1
	for _, l := range lines {
		if int(l.group) != cur {
			if cur >= 0 {
				flush(cur)
			}
			cur = int(l.group)
			if n := npath[cur]; n > 0 {
				rules = slices.Grow(rules, int(n))
			}
		}
		g := &t.groups[l.group]
		v := c.body[l.off : l.off+l.n]
		if l.kind == aiSigAgent || l.kind == aiCrawlRate {
			continue // see signingAgents
		}
		if l.kind == aiSignal {
			if g.signals.Line == 0 {
				g.signals = ParseContentSignal(v)
				g.signals.Line = int(l.line)
				g.signals.Pairs = slices.Clip(g.signals.Pairs)
			}
			continue
		}
		path, pref := splitUsage(v)
		prefs := usageStatement(pref)
		if path == "" {
			anyOf = append(anyOf, prefs)
			anyLines = append(anyLines, int(l.line))
			continue
		}
		one = c.addRule(one[:0], rawRule{off: l.off, n: uint32(len(path)), line: uint32(l.line)}, &arena)
		if one[0].flags&ruleDead != 0 {
			continue // a path no URL has
		}
		lineBuf = append(lineBuf, int(l.line))
		n := len(lineBuf)
		rules = append(rules, ruleAt{r: one[0], u: Usage{Prefs: prefs, Lines: lineBuf[n-1 : n : n]}})
	}
	if cur >= 0 {
		flush(cur)
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

// Get returns the preference for category key ("train-ai", "ai-use",
// "search", or another label): PrefUnknown when no deciding rule names it.
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

// AIUse returns the preference for AI use (draft-ietf-aipref-vocab-08).
func (u Usage) AIUse() Preference { return u.Get(UsageAIUse) }

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
// groups a decider chose, ready to answer. It copies no rule: the rules
// stay in the reading's table, shared by every decider; it lists the
// groups that have rules with a path, and holds the combined answer of the
// rules without one (the group's own when one group has them).
type groupUsage struct {
	t       *aiTable
	groups  []int32 // the chosen groups with rules with a path, file order
	anyPath Usage   // the rules without a path, combined: one group's
	// anyOf are the chosen groups with rules without a path, when there
	// are several: their answers are combined at each question that
	// needs them, rather than kept (the answer lists every line anyway).
	anyOf   []int32
	signals Signals
}

// newGroupUsage gathers the usage lines of groups (file order), or returns
// nil when the file has none.
func newGroupUsage(c *compiled, groups []int) *groupUsage {
	t := c.aiTable()
	if t == nil {
		return nil
	}
	g := &groupUsage{t: t, signals: t.signals(groups)}
	for _, gi := range groups {
		tg := &t.groups[gi]
		if tg.paths != nil {
			g.groups = append(g.groups, int32(gi))
		}
		if tg.nany > 0 {
			g.anyOf = append(g.anyOf, int32(gi))
		}
	}
	if len(g.anyOf) == 1 {
		g.anyPath, g.anyOf = t.groups[g.anyOf[0]].anyPath, nil // shared
	}
	return g
}

// pathless is the answer of the chosen groups' rules without a path.
func (g *groupUsage) pathless() Usage {
	if len(g.anyOf) == 0 {
		return g.anyPath
	}
	// Several groups: their combined answers combined (each key's
	// combination is the same whatever the grouping).
	var st [][]UsagePref
	var lines []int
	for _, gi := range g.anyOf {
		st = append(st, g.t.groups[gi].anyPath.Prefs)
		lines = append(lines, g.t.groups[gi].anyPath.Lines...)
	}
	return combinedUsage(st, lines)
}

// combinedUsage is the answer of rules together, given their statements
// (nil: failed to parse) and lines: the statements combined key by key,
// the lines ascending.
func combinedUsage(st [][]UsagePref, lines []int) Usage {
	switch len(lines) {
	case 0:
		return Usage{}
	case 1:
		return Usage{Prefs: st[0], Lines: []int{lines[0]}}
	}
	out := slices.Clone(lines)
	slices.Sort(out)
	return Usage{Prefs: slices.Clip(CombineUsage(st...)), Lines: slices.Clip(slices.Compact(out))}
}

// usageHit is a path rule that matches: its group and place in the group.
type usageHit struct {
	g *aiGroup
	i int
}

// answer returns the preferences for path: those of the longest matching
// path rule, or of all those of its length combined; else those of the
// rules without a path. It allocates only to combine ties.
func (g *groupUsage) answer(path string) Usage {
	var best uint32
	var first usageHit
	var ties []usageHit // beside first, in group then file order
	found := false
	p := newProbe(path, false)
	for _, gi := range g.groups {
		tg := &g.t.groups[gi]
		s := tg.paths
		if s.nmatch > bigSet && (s.indexed.Load() || !s.coldScan(path)) {
			// Through the index: every matching rule, kept when it is
			// at least as long as the best so far.
			var hits []int
			var top uint32
			base := uintptr(unsafe.Pointer(unsafe.SliceData(s.rules)))
			s.eachMatch(path, 0, func(r *crule) {
				i := int((uintptr(unsafe.Pointer(r)) - base) / unsafe.Sizeof(crule{}))
				switch {
				case len(hits) == 0 || r.n > top:
					hits, top = append(hits[:0], i), r.n
				case r.n == top:
					hits = append(hits, i)
				}
			})
			if len(hits) == 0 || found && top < best {
				continue
			}
			slices.Sort(hits)
			if !found || top > best {
				best, found, first, ties = top, true, usageHit{tg, hits[0]}, ties[:0]
				hits = hits[1:]
			}
			for _, i := range hits {
				ties = append(ties, usageHit{tg, i})
			}
			continue
		}
		rs := s.rules[:s.nmatch]
		for i := range rs {
			r := &rs[i]
			if found && r.n < best {
				break // longest first: no longer rule can come
			}
			if p.reject(r) || !s.matchRest(r, p.pathFor(r)) {
				continue
			}
			if !found || r.n > best {
				best, found, first, ties = r.n, true, usageHit{tg, i}, ties[:0]
			} else {
				ties = append(ties, usageHit{tg, i})
			}
		}
	}
	if !found {
		return g.pathless()
	}
	if len(ties) == 0 {
		return first.g.answers[first.i]
	}
	st := [][]UsagePref{first.g.answers[first.i].Prefs}
	lines := []int{first.g.answers[first.i].Lines[0]}
	for _, h := range ties {
		st = append(st, h.g.answers[h.i].Prefs)
		lines = append(lines, h.g.answers[h.i].Lines[0])
	}
	slices.Sort(lines)
	return Usage{Prefs: CombineUsage(st...), Lines: slices.Compact(lines)}
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
