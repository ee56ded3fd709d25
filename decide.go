package robotstxt

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// Allowed reports whether the crawler with product token userAgent may fetch
// url, exactly as Google's library answers (its OneAgentAllowedByRobots). url
// is an absolute URL or a path starting with '/'; it is taken as given, not
// normalised (see [NormalizeURL]). userAgent is compared as given, ignoring
// ASCII case, with the token each user-agent line names.
//
// Allowed is safe for concurrent use and does not allocate (except for a
// URL with an empty path and a query or params over 1 KiB, "http://h?...")
// once the rules it reads are compiled. A parsed file's first eight
// questions (with paths of up to 256 bytes) are answered from its parsed
// lines, reading the rules of the groups that apply once each, without
// allocating: a crawler meeting a new site, or a one-off check, pays for
// no more. The next question compiles the rules that apply to its crawler
// (normalised, ordered and laid out in one block); a large set (over 256
// rules, or over 128 that one block would not bucket well) is then
// answered by trying each rule until about eight questions have been
// asked about it (fewer with long URLs), when its index is built,
// which allocates too (see [Robots.Compile], which does all of it up
// front).
//
// userAgent is a product token, not a User-Agent header: the commonest
// mistake is to pass the header a request carries ("Googlebot/2.1",
// "Mozilla/5.0 (compatible; ExampleBot/1.0; +https://...)"), which names no
// group (Google's library compares the whole value) and falls to '*'. Pass
// [ProductToken] of the header, or ask about a known crawler with
// [Robots.Decide] and [Query.Crawler].
func (r *Robots) Allowed(userAgent, url string) bool {
	path, slash := splitPathRaw(url)
	if c := &r.google; !slash && c.prepared.Load() {
		// The usual question, answered here rather than through allowed
		// (one call less): the crawler's set has a hot block.
		if _, hot := c.setOf(c.findToken(userAgent)); hot != nil {
			w2, ok := hotFindAt(hot, path)
			return !ok || hotAllows(w2)
		}
	}
	if !slash {
		return r.google.allowed(userAgent, path)
	}
	return r.allowedSlash(userAgent, path)
}

// allowedSlash is Allowed for a URL whose path starts with '?' or ';'
// ("http://h?q"): it matches "/" + path, built on the stack when it fits.
// (Apart, so that Allowed's own frame stays small.)
//
//go:noinline
func (r *Robots) allowedSlash(userAgent, path string) bool {
	path = cutPath(path)
	var buf [1024]byte
	if len(path) >= len(buf) {
		return r.google.allowed(userAgent, "/"+path)
	}
	buf[0] = '/'
	n := copy(buf[1:], path)
	return r.google.allowed(userAgent, unsafe.String(&buf[0], n+1))
}

// allowed answers for path, which may run on past its end: a '#' or NUL
// byte (Google's library holds the path as a C string) ends it, and the
// rule sets look for those only when a rule needs the path's end.
func (c *compiled) allowed(ua, path string) bool {
	if !c.prepared.Load() {
		if allowed, ok := c.allowedRaw(ua, path); ok {
			return allowed
		}
	}
	c.prepare()
	set, hot := c.setOf(c.findToken(ua))
	if hot != nil {
		// The set's hot block: no need to read the set itself.
		w2, ok := hotFindAt(hot, path)
		return !ok || hotAllows(w2)
	}
	if set == noSet {
		return true
	}
	best := c.coldSet(set).eval(path)
	return best == nil || best.allow() || best.n == 0
}

// setOf returns the set that answers for the crawler whose token is t (as
// findToken returns it: the token's set, or the '*' set, c.global, for -1)
// and that set's hot block, or nil when it has none or is not compiled
// yet. The file must be prepared.
func (c *compiled) setOf(t int32) (int32, unsafe.Pointer) {
	if t >= 0 {
		return c.fast[t].set, atomic.LoadPointer(&c.fast[t].hot)
	}
	return c.global, atomic.LoadPointer(&c.starHot)
}

// Query is a question for [Robots.Decide].
type Query struct {
	// URL is an absolute URL or a path starting with '/'. It is taken as
	// given (see NormalizeURL).
	URL string
	// Agents are product tokens asked about together, with Google's
	// semantics: every group naming any of them applies. Agents and
	// Crawler are exclusive: when both are set, Crawler is who asks and
	// Agents is ignored.
	Agents []string
	// Crawler is a known crawler (see LookupCrawler): its fallback tokens,
	// whether it ignores the '*' group, and its dialect apply.
	// [Crawler.Query] makes such a query without taking an address.
	Crawler *Crawler
	// Dialect is the reading to use; DefaultDialect means the crawler's
	// own, else Google.
	Dialect Dialect
	// Explain asks for every rule that matched, with why it lost.
	Explain bool
}

// GroupKind says how the group that applied was chosen.
type GroupKind uint8

// The ways a group is chosen.
const (
	GroupNone     GroupKind = iota // no group applies: everything is allowed
	GroupSpecific                  // groups naming the crawler
	GroupGlobal                    // the '*' group
)

func (k GroupKind) String() string {
	switch k {
	case GroupSpecific:
		return "specific"
	case GroupGlobal:
		return "global"
	}
	return "none"
}

// GroupChoice says which groups applied to a question and why.
type GroupChoice struct {
	Kind   GroupKind
	Token  string // the token whose groups applied ("*" for the global group)
	Lines  []int  // the user-agent lines that chose the groups
	Groups []int  // the groups that applied (0-based, file order; see Robots.Groups)
	Reason string // in words
}

// RuleMatch is a rule that matched a URL.
type RuleMatch struct {
	Line    int
	Allow   bool
	Pattern string // the pattern as matched (normalised)
	Text    string // the line as written
	// Implicit is set for the rule Google derives from an allow of
	// .../index.htm: it allows the directory itself ("dir/$").
	Implicit bool
	// Lost says why this rule did not decide; "" for the deciding rule.
	Lost string
}

// Decision is the answer to a [Query], with what decided it.
type Decision struct {
	Allowed bool
	Dialect Dialect
	Path    string // the part of the URL that was matched
	// Rule is the deciding rule; its zero value (Line 0, empty Text) means
	// that no rule decided, so it is always safe to read (see HasRule).
	// Its Line is what Google's library reports as the matching line (an
	// empty pattern matches with weight 0: it never blocks, but it is
	// reported when nothing weightier matched).
	Rule   RuleMatch
	Group  GroupChoice
	Reason string // the verdict in words
	// Matches holds, with Query.Explain, every rule that matched, the
	// deciding rule first; empty when no rule matched. Lost returns the
	// rest safely.
	Matches []RuleMatch
	// CrawlDelay is the crawl-delay in seconds that applies, when
	// HasCrawlDelay; only some dialects honour it (Dialect.HonoursCrawlDelay).
	CrawlDelay     float64
	HasCrawlDelay  bool
	CrawlDelayLine int
}

// Line returns the deciding rule's line, 0 when none (Google's matching line).
func (d *Decision) Line() int { return d.Rule.Line }

// HasRule reports whether a rule decided (d.Rule is set). When none did,
// the verdict is "allowed" and d.Reason says why (no group, no match).
func (d *Decision) HasRule() bool { return d.Rule.Line != 0 }

// Lost returns the rules that matched but did not decide, each with why
// it lost (RuleMatch.Lost); it is empty without Query.Explain or when
// fewer than two rules matched, and never panics.
func (d *Decision) Lost() []RuleMatch {
	if len(d.Matches) < 2 {
		return nil
	}
	return d.Matches[1:]
}

// AllowedAgents reports whether a crawler obeying all the product tokens in
// agents may fetch url, with Google's semantics (AllowedByRobots): the rules
// of every group naming any of the tokens apply together.
func (r *Robots) AllowedAgents(agents []string, url string) bool {
	return r.Decide(Query{URL: url, Agents: agents, Dialect: Google}).Allowed
}

// Decide answers a query and says what decided it. To ask about many
// URLs for one crawler, [Robots.Decider] prepares the query once.
func (r *Robots) Decide(q Query) Decision {
	var p Decider
	r.prepare(&p, q)
	return p.Decide(q.URL)
}

// hit is a rule and the set it was compiled in.
type hit struct {
	s *ruleSet
	r *crule
}

func verdictWord(allowed bool) string {
	if allowed {
		return "allows"
	}
	return "disallows"
}

// ruleMatch describes a compiled rule.
func (r *Robots) ruleMatch(h hit) RuleMatch {
	cr := h.r
	return RuleMatch{Line: int(cr.line), Allow: cr.allow(), Pattern: h.s.pat(cr), Implicit: cr.flags&ruleIndexHTM != 0, Text: r.lineText(int(cr.line))}
}

// matchHits returns every rule of the sets that matches path, each once
// (sets may share rules), in the sets' order.
func matchHits(sets []*ruleSet, path string, skip uint8) []hit {
	var hits []hit
	type ruleKey struct {
		line, n int32
		flags   uint8
	}
	var seen map[ruleKey]bool // with several sets, the rules they share
	if len(sets) > 1 {
		seen = map[ruleKey]bool{}
	}
	for _, s := range sets {
		s.eachMatch(path, skip, func(cr *crule) {
			if seen != nil {
				k := ruleKey{cr.line, int32(cr.n), cr.flags & (ruleAllow | ruleIndexHTM)}
				if seen[k] {
					return
				}
				seen[k] = true
			}
			hits = append(hits, hit{s, cr})
		})
	}
	return hits
}

// explain lists the rules of hits, the winner first.
func (r *Robots) explain(hits []hit, win *crule, d Dialect) []RuleMatch {
	slices.SortStableFunc(hits, func(a, b hit) int {
		if d.firstMatch() {
			return int(a.r.line) - int(b.r.line)
		}
		if better(a.r, b.r) {
			return -1
		}
		if better(b.r, a.r) {
			return 1
		}
		return 0
	})
	out := make([]RuleMatch, 0, len(hits))
	for _, h := range hits {
		m := r.ruleMatch(h)
		if win != nil && (h.r.line != win.line || h.r.n != win.n) {
			m.Lost = lostReason(h.r, win, d)
		}
		out = append(out, m)
	}
	return out
}

func lostReason(h, win *crule, d Dialect) string {
	switch {
	case d.firstMatch():
		return intText("line ", int(win.line), " matched first (the first match wins in the ", d.String()+" dialect)")
	case h.n == 0:
		return "an empty pattern matches with weight 0"
	case h.n < win.n:
		return intText("shorter: ", int(h.n), " bytes against ", intText("", int(win.n), " (the longest match wins)", ""))
	case h.allow() != win.allow():
		return "same length: allow wins a tie"
	}
	return intText("same length and kind: line ", int(win.line), " comes first", "")
}

// choose picks the groups that apply to a query. It also returns the rule
// sets that hold those groups between them (a group may be in several).
// Its work is proportional to the groups and lines that name the crawler:
// names are looked up in indexes built once per reading.
func (c *compiled) choose(q Query, d Dialect) (GroupChoice, []int32) {
	var tiers [][]string
	ignoreGlobal := false
	loose := false
	switch {
	case q.Crawler != nil:
		// Its token and the other names it is known by, then its
		// fallback tokens.
		tiers = append(tiers, append([]string{q.Crawler.Token}, q.Crawler.Aliases...))
		for _, t := range q.Crawler.Fallbacks {
			tiers = append(tiers, []string{t})
		}
		ignoreGlobal = q.Crawler.IgnoresGlobal
		loose = true
	case len(q.Agents) > 0:
		tiers = [][]string{q.Agents}
	}
	for _, tier := range tiers {
		var groups, lines []int
		var sets []int32
		var named []string // the tokens of the tier that name groups
		var gls, lls [][]int
		for _, tok := range tier {
			gs, ls, set := c.groupsNaming(tok, d, loose)
			if len(gs) > 0 {
				if set != noSet {
					sets = append(sets, set)
				} else {
					for _, gi := range gs {
						sets = append(sets, int32(gi))
					}
				}
			}
			gls, lls = append(gls, gs), append(lls, ls)
		}
		if len(tier) == 1 {
			// One name: its groups and lines as they are.
			groups, lines = gls[0], lls[0]
			if len(lines) > 0 {
				named = append(named, tier[0])
			}
		} else {
			groups, _ = mergeSorted(gls)
			var credit []bool
			lines, credit = mergeSorted(lls)
			for i, tok := range tier {
				// A name counts when it names lines the names before
				// it do not ("Sogou web spider" names Sogou already).
				if credit[i] {
					named = append(named, tok)
				}
			}
			slices.Sort(sets)
			sets = slices.Compact(sets)
		}
		if len(groups) == 0 {
			continue
		}
		if d.draftRecords() && len(groups) > 1 {
			// The draft: only the first record that names the crawler.
			g := c.groups[groups[0]]
			groups = groups[:1]
			sets = []int32{int32(groups[0])}
			lines = slices.DeleteFunc(lines, func(l int) bool {
				return l < int(c.agents[g.alo].line) || l > int(c.agents[g.ahi-1].line)
			})
		}
		name := strings.Join(tier, ", ")
		if q.Crawler != nil {
			name = strings.Join(named, ", ")
		}
		return GroupChoice{Kind: GroupSpecific, Token: name, Groups: groups, Lines: lines,
			Reason: "user-agent line " + joinInts(lines) + " names " + name}, sets
	}
	asked := "the crawler"
	if len(tiers) > 0 {
		var all []string
		for _, t := range tiers {
			all = append(all, t...)
		}
		asked = strings.Join(all, ", ")
	}
	if ignoreGlobal {
		return GroupChoice{Kind: GroupNone, Reason: "no group names " + asked + ", and it ignores the * group"}, nil
	}
	if len(c.globalGroups) == 0 {
		return GroupChoice{Kind: GroupNone, Reason: "no group names " + asked + " and there is no * group"}, nil
	}
	var groups, lines []int
	gl := c.globalGroups
	set := c.global
	if d.draftRecords() {
		gl = gl[:1] // the draft: the first record for '*'
		set = gl[0]
	}
	groups = make([]int, 0, len(gl))
	for _, gi := range gl {
		groups = append(groups, int(gi))
		g := &c.groups[gi]
		for _, a := range c.agents[g.alo:g.ahi] {
			if a.global() {
				lines = append(lines, int(a.line))
			}
		}
	}
	return GroupChoice{Kind: GroupGlobal, Token: "*", Groups: groups, Lines: lines,
		Reason: "no group names " + asked + ": the * group applies (line " + joinInts(lines) + ")"}, []int32{set}
}

// mergeSorted merges sorted lists into one without repeats, and says for
// each list whether it holds a value no list before it holds. It takes time
// in proportion to the values times the lists (a few names).
func mergeSorted(lists [][]int) (merged []int, credit []bool) {
	credit = make([]bool, len(lists))
	for i, l := range lists {
		if len(l) == 0 {
			continue
		}
		if merged == nil {
			merged, credit[i] = slices.Compact(slices.Clone(l)), true
			continue
		}
		out := make([]int, 0, len(merged)+len(l))
		x, y := merged, l
		for len(x) > 0 || len(y) > 0 {
			var v int
			switch {
			case len(y) == 0 || len(x) > 0 && x[0] < y[0]:
				v, x = x[0], x[1:]
			case len(x) == 0 || y[0] < x[0]:
				v, y = y[0], y[1:]
				credit[i] = true
			default:
				v, x, y = x[0], x[1:], y[1:]
			}
			if n := len(out); n == 0 || out[n-1] != v {
				out = append(out, v)
			}
		}
		merged = out
	}
	return merged, credit
}

// groupsNaming returns the groups that name tok and the user-agent lines that
// do (both in file order), and the rule set of exactly those groups when
// there is one (else noSet: each group's own set). Google, Bing, Yandex and
// RFC 9309 compare the token each line names; the original draft takes the
// first record whose value contains tok. With loose set (a known crawler),
// a name that is not a product token, which Google's reading never matches
// ("360Spider", "Yahoo! Slurp"), is compared with the line's leading run of
// letters, digits, '-', '_' and '.', and with its whole value without
// version ("Yahoo!  Slurp/3.0" names "Yahoo! Slurp").
func (c *compiled) groupsNaming(tok string, d Dialect, loose bool) (groups, lines []int, set int32) {
	if d.draftRecords() {
		// The draft: a case-insensitive substring match of the name
		// without version information.
		name := looseToken(strings.TrimSpace(tok))
		if loose {
			name = agentName(tok)
		}
		gi := c.firstRecord(strings.ToLower(name))
		if gi < 0 {
			return nil, nil, noSet
		}
		lt := strings.ToLower(name)
		g := &c.groups[gi]
		for _, a := range c.agents[g.alo:g.ahi] {
			if !a.global() && strings.Contains(strings.ToLower(c.agentValue(a)), lt) {
				lines = append(lines, int(a.line))
			}
		}
		return []int{gi}, lines, int32(gi)
	}
	if loose && !ValidToken(tok) {
		return c.looseNaming(tok)
	}
	t := c.findToken(tok)
	if t < 0 {
		return nil, nil, noSet
	}
	e := &c.toks[t]
	groups, lines = make([]int, len(e.groups)), make([]int, e.nlines)
	for i, gi := range e.groups {
		groups[i] = int(gi)
	}
	for i, l := range c.tokLines[e.lines : e.lines+e.nlines] {
		lines[i] = int(l)
	}
	return groups, lines, e.set
}

// draftIndex finds the first record whose user-agent value contains a
// name, as the draft reads them: the values of every line naming a crawler
// (not '*'), in lower case, one after another with a '\n' between, which no
// name holds.
type draftIndex struct {
	text  string
	start []int32 // per entry: where its value starts in text
	group []int32 // per entry: its group
}

// firstRecord returns the first group one of whose user-agent values
// (in lower case) contains lt, or -1 when none does or lt is empty.
func (c *compiled) firstRecord(lt string) int {
	if lt == "" {
		return -1
	}
	c.draftOnce.Do(func() {
		ix := new(draftIndex)
		var b strings.Builder
		for gi := range c.groups {
			g := &c.groups[gi]
			for _, a := range c.agents[g.alo:g.ahi] {
				if !a.global() {
					ix.start = append(ix.start, int32(b.Len()))
					ix.group = append(ix.group, int32(gi))
					b.WriteString(strings.ToLower(c.agentValue(a)))
					b.WriteByte('\n')
				}
			}
		}
		ix.text = b.String()
		c.draft = ix
	})
	ix := c.draft
	at := strings.Index(ix.text, lt)
	if at < 0 || strings.IndexByte(lt, '\n') >= 0 {
		return -1
	}
	// The entry holding position at: the last that starts at or before it.
	e, _ := slices.BinarySearch(ix.start, int32(at)+1)
	return int(ix.group[e-1])
}

// looseIndex finds the user-agent lines a known crawler's name that is not
// a product token names (see groupsNaming): the lines by the fold key
// (foldKey) of their leading run of token bytes, digits and '.', and of
// their value without version. A key's lines are in file order.
type looseIndex struct {
	byToken map[string][]int32 // positions in agents
	byName  map[string][]int32
}

// looseNaming is groupsNaming for a name that is not a product token.
func (c *compiled) looseNaming(tok string) (groups, lines []int, set int32) {
	c.looseOnce.Do(func() {
		ix := &looseIndex{byToken: map[string][]int32{}, byName: map[string][]int32{}}
		for ai := range c.agents {
			a := c.agents[ai]
			if a.global() {
				continue
			}
			v := c.agentValue(a)
			k := foldKey(looseToken(v))
			ix.byToken[k] = append(ix.byToken[k], int32(ai))
			k = foldKey(agentName(v))
			ix.byName[k] = append(ix.byName[k], int32(ai))
		}
		c.loose = ix
	})
	x, y := c.loose.byToken[foldKey(tok)], c.loose.byName[foldKey(agentName(tok))]
	// Merge the two lists (both in file order), without repeats.
	last := -1
	for len(x) > 0 || len(y) > 0 {
		var ai int32
		if len(y) == 0 || len(x) > 0 && x[0] < y[0] {
			ai, x = x[0], x[1:]
		} else {
			ai, y = y[0], y[1:]
		}
		if int(ai) == last {
			continue
		}
		last = int(ai)
		lines = append(lines, int(c.agents[ai].line))
		// The group holding agent line ai: the last that starts at or
		// before it.
		gi, _ := slices.BinarySearchFunc(c.groups, ai+1, func(g group, v int32) int { return cmp.Compare(g.alo, v) })
		if n := len(groups); n == 0 || groups[n-1] != gi-1 {
			groups = append(groups, gi-1)
		}
	}
	return groups, lines, noSet
}

// foldKey returns a key for s such that two strings have the same key
// exactly when strings.EqualFold reports them equal: each rune (an invalid
// byte is U+FFFD, as EqualFold reads it) as the smallest rune of its
// simple case-folding orbit.
func foldKey(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToUpper(s)
	}
	var b strings.Builder
	for _, r := range s {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		b.WriteRune(m)
	}
	return b.String()
}

// agentName is a user-agent value without its version ("/..."), its runs of
// white space written as one space.
func agentName(v string) string {
	v, _, _ = strings.Cut(v, "/")
	return strings.Join(strings.Fields(v), " ")
}

// looseToken is the leading run of letters, digits, '-', '_' and '.' of a value.
func looseToken(v string) string {
	i := 0
	for i < len(v) && (isTokenByte(v[i]) || '0' <= v[i] && v[i] <= '9' || v[i] == '.') {
		i++
	}
	return v[:i]
}

// crawlDelay fills in the crawl-delay of the chosen groups: the first
// readable one in file order. Bing takes it from the '*' group when the
// Bingbot group has none.
func (c *compiled) crawlDelay(dec *Decision, d Dialect) {
	if !c.groupExts {
		return
	}
	find := func(groups []int) bool {
		for _, gi := range groups {
			if e := c.extOf(gi); e != nil && e.crawlDelayLine != 0 {
				dec.CrawlDelay, dec.HasCrawlDelay, dec.CrawlDelayLine = e.crawlDelay, true, int(e.crawlDelayLine)
				return true
			}
		}
		return false
	}
	if find(dec.Group.Groups) {
		return
	}
	if d == Bing && dec.Group.Kind == GroupSpecific {
		var gl []int
		for _, g := range c.globalGroups {
			gl = append(gl, int(g))
		}
		find(gl)
	}
}

// joinInts writes xs as "1, 2, 3", the first maxListed of them followed by
// how many more there are.
func joinInts(xs []int) string {
	const maxListed = 32
	more := 0
	if len(xs) > maxListed {
		xs, more = xs[:maxListed], len(xs)-maxListed
	}
	b := make([]byte, 0, 8*len(xs)+16)
	for i, x := range xs {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	if more > 0 {
		b = append(b, " and "...)
		b = strconv.AppendInt(b, int64(more), 10)
		b = append(b, " more"...)
	}
	return string(b)
}
