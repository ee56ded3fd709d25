package robotstxt

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Choosing the groups that apply to a question (Decide and Decider): by the
// crawler's product token in the dialect's reading, else the '*' group, and
// the reason given for the choice; and the crawl delay the chosen groups
// set.

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
		if d.DraftRecords() && len(groups) > 1 {
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
	if d.DraftRecords() {
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
	if d.DraftRecords() {
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
