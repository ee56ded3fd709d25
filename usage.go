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

// addAI records a Content-Usage or Content-Signal line of the current
// group (a line outside any group is not kept: lint reports it).
func (b *builder) addAI(ln *lexLine) {
	if b.cur < 0 || ln.flags&flagMissingColon != 0 {
		return
	}
	c := b.c
	if c.ai == nil {
		c.ai = new(aiLines)
	}
	c.ai.lines = append(c.ai.lines, aiLine{
		group: int32(b.cur), line: int32(ln.num),
		off: uint32(ln.start + ln.valOff), n: uint32(len(ln.value)),
		signal: ln.field == FieldContentSignal,
	})
	b.groups[b.cur].last = int32(ln.num)
	if ln.field == FieldContentUsage && c.dialect == RFC9309 {
		b.usageRule = true
	}
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

// Usage answers for url as [Robots.Usage] does, for the decider's query.
// A file's usage table is built on its first usage question.
func (p *Decider) Usage(url string) UsageAnswer {
	if p.oversized {
		return UsageAnswer{Allowed: true}
	}
	// The crawl decision, as decide makes it, without its words.
	path := decisionPath(url, p.d)
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
	t := p.c.aiTable()
	if t == nil {
		return a
	}
	groups := p.base.Group.Groups
	a.Signals = t.signals(groups)
	if a.Allowed {
		a.Usage = t.usage(groups, path)
	}
	return a
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

// each calls fn for every Content-Usage rule of groups that matches path,
// with the length of its path (0 for a rule without one).
func (t *aiTable) each(groups []int, path string, fn func(w int, u *usageRule)) {
	for _, gi := range groups {
		g := &t.groups[gi]
		for i := range g.anyPath {
			fn(0, &g.anyPath[i])
		}
		if s := g.paths; s != nil {
			base := uintptr(unsafe.Pointer(unsafe.SliceData(s.rules)))
			s.scanEach(path, 0, func(r *crule) {
				fn(int(r.n), &g.pathOf[(uintptr(unsafe.Pointer(r))-base)/unsafe.Sizeof(crule{})])
			})
		}
	}
}

// usage returns the preferences of groups' Content-Usage rules for path
// (as the dialect matches it).
func (t *aiTable) usage(groups []int, path string) Usage {
	// The longest path, the first rule of that length, and how many.
	best, n := -1, 0
	var first *usageRule
	t.each(groups, path, func(w int, u *usageRule) {
		switch {
		case w > best:
			best, first, n = w, u, 1
		case w == best:
			n++
		}
	})
	switch n {
	case 0:
		return Usage{}
	case 1:
		return Usage{Prefs: first.prefs, Lines: first.lines}
	}
	// Rules with paths of one length: their statements combined.
	var st [][]UsagePref
	var lines []int
	t.each(groups, path, func(w int, u *usageRule) {
		if w == best {
			st = append(st, u.prefs)
			lines = append(lines, u.line)
		}
	})
	slices.Sort(lines)
	return Usage{Prefs: CombineUsage(st...), Lines: slices.Compact(lines)}
}
