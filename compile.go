package robotstxt

import (
	"strconv"
	"strings"
	"sync"
)

// bigSet is the number of rules above which a rule set is searched through
// an index (built on its first question) instead of scanned.
const bigSet = 32

// compiled is one dialect's reading of a file, ready for questions. It holds
// no pointers per rule: rules are small values in one slice whose patterns
// are offsets into one arena string.
type compiled struct {
	dialect Dialect
	base    string // the arena rule patterns point into

	rules  []crule     // every rule; group g owns rules[g.lo:g.hi]
	agents []agentLine // every user-agent line; group g owns agents[g.alo:g.ahi]
	groups []group

	sets    []*ruleSet       // the rule sets crawlers are matched against
	setKeys map[string]int32 // merged sets by their groups
	toks    []tokenEntry     // the product tokens the file names
	tokMap  map[string]int32 // lower-case token -> toks index, when there are many
	global  int32            // the set of the '*' groups; -1 when there is none

	globalGroups []int32
	orphans      []int32 // lines of rules before any user-agent line
	ext          fileExt
}

// group is one group (record) of the file.
type group struct {
	alo, ahi int32 // its user-agent lines: agents[alo:ahi]
	lo, hi   int32 // its rules: rules[lo:hi]; the first nmatch can match
	nmatch   int32
	last     int32 // its last line
	set      int32 // the set of this group alone; -1 until made
	global   bool  // one of its user-agent lines is '*'
	ext      *groupExt
}

func (g *group) matchable() (lo, hi int32) { return g.lo, g.lo + g.nmatch }

// agentLine is one user-agent line.
type agentLine struct {
	line   int32
	value  string // the value as written (trimmed)
	token  string // the product token read from it; "*" for the global group
	global bool
}

// tokenEntry is one product token the file names, and the groups naming it.
type tokenEntry struct {
	tok    string  // as first written; compared ignoring ASCII case
	groups []int32 // in file order
	set    int32
}

// crule is a compiled allow or disallow rule.
type crule struct {
	off, n uint32 // the normalised pattern is base[off:off+n]; n is the rule's weight
	lit    uint32 // the length of its literal prefix: up to the first '*', without a final '$'
	line   int32
	flags  uint8
}

const (
	ruleAllow    uint8 = 1 << iota
	ruleWild           // the pattern holds a '*' wildcard
	ruleAnchored       // the pattern ends with the '$' anchor
	ruleIndexHTM       // implied by an allow of .../index.htm (Google)
	ruleDead           // no URL can match the pattern
)

func (r *crule) allow() bool { return r.flags&ruleAllow != 0 }

// better reports whether rule a beats rule b in longest-match order: the
// longer pattern, then allow over disallow, then the earlier line.
func better(a, b *crule) bool {
	if a.n != b.n {
		return a.n > b.n
	}
	if a.allow() != b.allow() {
		return a.allow()
	}
	return a.line < b.line
}

func (c *compiled) pat(r *crule) string { return c.base[r.off : r.off+r.n] }

// match reports whether rule r matches path.
func (c *compiled) match(r *crule, path string) bool {
	lit := c.base[r.off : r.off+r.lit]
	if len(path) < len(lit) || path[:len(lit)] != lit {
		return false
	}
	switch r.flags & (ruleWild | ruleAnchored) {
	case 0:
		return true
	case ruleAnchored:
		return len(path) == len(lit)
	}
	return globMatch(path[len(lit):], c.base[r.off+r.lit:r.off+r.n], r.flags&ruleAnchored != 0)
}

// ruleSet is the rules that apply to one crawler: those of every group
// naming one token, or of every '*' group.
type ruleSet struct {
	groups []int32
	lo, hi int32   // one small group: its matchable rules, rules[lo:hi], in precedence order
	order  []int32 // several small groups: their matchable rules in precedence order
	big    bool    // more than bigSet rules: searched through idx

	once sync.Once
	idx  *ruleIndex
}

// build reads body in dialect d's reading and compiles it. Patterns that are
// not substrings of body are appended to arena; for the google reading the
// arena starts with body itself.
func (c *compiled) build(body string, d Dialect, arena *strings.Builder) {
	c.dialect = d
	c.global = -1
	c.rules = make([]crule, 0, len(body)/48+4)
	cur := -1
	lex(body, d.reading(), func(ln *lexLine) {
		if d == Original && ln.flags&flagEmpty != 0 {
			cur = -1 // the draft separates records by blank lines
			return
		}
		switch ln.field {
		case FieldUserAgent:
			if cur < 0 || c.groups[cur].hi > c.groups[cur].lo {
				n := int32(len(c.rules))
				c.groups = append(c.groups, group{alo: int32(len(c.agents)), ahi: int32(len(c.agents)), lo: n, hi: n, set: -1})
				cur = len(c.groups) - 1
			}
			g := &c.groups[cur]
			a := agentLine{line: int32(ln.num), value: ln.value}
			if isGlobalAgent(ln.value) {
				a.global, a.token = true, "*"
				g.global = true
			} else {
				a.token = ExtractToken(ln.value)
			}
			c.agents = append(c.agents, a)
			g.ahi++
			g.last = int32(ln.num)
		case FieldAllow, FieldDisallow:
			if cur < 0 {
				c.orphans = append(c.orphans, int32(ln.num))
				return
			}
			c.addRule(ln, arena)
			g := &c.groups[cur]
			g.hi = int32(len(c.rules))
			g.last = int32(ln.num)
		case FieldSitemap:
			c.ext.addSitemap(ln)
		case FieldCrawlDelay, FieldRequestRate, FieldVisitTime:
			if cur < 0 {
				return
			}
			g := &c.groups[cur]
			if g.ext == nil {
				g.ext = new(groupExt)
			}
			g.ext.add(ln)
			g.last = int32(ln.num)
		case FieldCleanParam, FieldHost:
			c.ext.add(ln)
		}
	})
	c.base = arena.String()
	c.finish()
}

// addRule compiles one allow or disallow line.
func (c *compiled) addRule(ln *lexLine, arena *strings.Builder) {
	var flags uint8
	if ln.field == FieldAllow {
		flags = ruleAllow
	}
	v := ln.value
	var off int
	var pat string
	switch c.dialect {
	case Original:
		pat = decodeOriginal(v)
		off = arena.Len()
		arena.WriteString(pat)
	case RFC9309:
		pat = normalizeRFCPattern(v)
		off = arena.Len()
		arena.WriteString(pat)
	default:
		if pat = EscapePattern(v); pat == v {
			// Unchanged: the pattern is the value in the body, which
			// opens the arena.
			off = ln.start + ln.valOff
		} else {
			off = arena.Len()
			arena.WriteString(pat)
		}
	}
	c.rules = append(c.rules, c.newRule(pat, off, int32(ln.num), flags))
	if c.dialect == Google && flags&ruleAllow != 0 {
		// Google: an allow of .../index.htm(l) also allows its directory,
		// as the pattern "dir/$", when the allow itself does not match.
		if i := strings.LastIndexByte(pat, '/'); i >= 0 && strings.HasPrefix(pat[i:], "/index.htm") {
			off := arena.Len()
			arena.WriteString(pat[:i+1])
			arena.WriteByte('$')
			c.rules = append(c.rules, c.newRule(pat[:i+1]+"$", off, int32(ln.num), flags|ruleIndexHTM))
		}
	}
}

// newRule classifies a normalised pattern stored at off in the arena.
func (c *compiled) newRule(pat string, off int, line int32, flags uint8) crule {
	r := crule{off: uint32(off), n: uint32(len(pat)), line: line, flags: flags}
	if c.dialect == Original {
		// No wildcards; an empty value blocks nothing.
		r.lit = r.n
		if pat == "" || pat[0] != '/' {
			r.flags |= ruleDead
		}
		return r
	}
	body := pat
	if strings.HasSuffix(pat, "$") {
		r.flags |= ruleAnchored
		body = pat[:len(pat)-1]
	}
	if star := strings.IndexByte(body, '*'); star >= 0 {
		r.flags |= ruleWild
		r.lit = uint32(star)
	} else {
		r.lit = uint32(len(body))
	}
	// URL paths start with '/': a pattern starting with anything but '/'
	// or '*' matches none ("$" alone matches only an empty path).
	if pat != "" && (pat[0] != '/' && pat[0] != '*' || pat == "$") {
		r.flags |= ruleDead
	}
	return r
}

// finish orders each group's rules, indexes the tokens and makes the sets.
func (c *compiled) finish() {
	var dead []crule
	for gi := range c.groups {
		g := &c.groups[gi]
		rs := c.rules[g.lo:g.hi]
		n := 0
		for i := range rs {
			if rs[i].flags&ruleDead == 0 {
				n++
			}
		}
		if n < len(rs) {
			// Matchable rules first, each part in file order.
			dead = dead[:0]
			k := 0
			for i := range rs {
				if rs[i].flags&ruleDead == 0 {
					rs[k] = rs[i]
					k++
				} else {
					dead = append(dead, rs[i])
				}
			}
			copy(rs[k:], dead)
		}
		g.nmatch = int32(n)
		if c.dialect != Original && n <= bigSet {
			sortPrecedence(rs[:n])
		}
		for ai := g.alo; ai < g.ahi; ai++ {
			if a := &c.agents[ai]; !a.global {
				c.addToken(a.token, int32(gi))
			}
		}
		if g.global {
			c.globalGroups = append(c.globalGroups, int32(gi))
		}
	}
	for i := range c.toks {
		c.toks[i].set = c.setFor(c.toks[i].groups)
	}
	if len(c.globalGroups) > 0 {
		c.global = c.setFor(c.globalGroups)
	}
}

// sortPrecedence sorts a few rules into longest-match order (insertion sort:
// the groups it sorts are small).
func sortPrecedence(rs []crule) {
	for i := 1; i < len(rs); i++ {
		x := rs[i]
		j := i
		for j > 0 && better(&x, &rs[j-1]) {
			rs[j] = rs[j-1]
			j--
		}
		rs[j] = x
	}
}

// addToken records that group gi names tok.
func (c *compiled) addToken(tok string, gi int32) {
	i := c.findToken(tok)
	if i < 0 {
		i = int32(len(c.toks))
		c.toks = append(c.toks, tokenEntry{tok: tok, set: -1})
		if c.tokMap != nil {
			c.tokMap[lowerASCII(tok)] = i
		} else if len(c.toks) > 8 {
			c.tokMap = make(map[string]int32, 16)
			for j := range c.toks {
				c.tokMap[lowerASCII(c.toks[j].tok)] = int32(j)
			}
		}
	}
	e := &c.toks[i]
	if n := len(e.groups); n == 0 || e.groups[n-1] != gi {
		e.groups = append(e.groups, gi)
	}
}

// findToken returns the index of tok in c.toks, ignoring ASCII case, or -1.
// It does not allocate.
func (c *compiled) findToken(tok string) int32 {
	if c.tokMap == nil {
		for i := range c.toks {
			if t := c.toks[i].tok; len(t) == len(tok) && equalFoldASCII(t, tok) {
				return int32(i)
			}
		}
		return -1
	}
	var buf [64]byte
	if len(tok) > len(buf) {
		if i, ok := c.tokMap[lowerASCII(tok)]; ok {
			return i
		}
		return -1
	}
	for i := 0; i < len(tok); i++ {
		b := tok[i]
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		buf[i] = b
	}
	if i, ok := c.tokMap[string(buf[:len(tok)])]; ok {
		return i
	}
	return -1
}

// tokenGroups returns the groups naming tok (Google's comparison).
func (c *compiled) tokenGroups(tok string) []int32 {
	if i := c.findToken(tok); i >= 0 {
		return c.toks[i].groups
	}
	return nil
}

// setFor returns the set for a list of groups, making it on first use.
func (c *compiled) setFor(groups []int32) int32 {
	if len(groups) == 1 {
		g := &c.groups[groups[0]]
		if g.set < 0 {
			g.set = c.newSet(groups)
		}
		return g.set
	}
	var kb []byte
	for _, g := range groups {
		kb = strconv.AppendInt(kb, int64(g), 10)
		kb = append(kb, ',')
	}
	if s, ok := c.setKeys[string(kb)]; ok {
		return s
	}
	s := c.newSet(groups)
	if c.setKeys == nil {
		c.setKeys = make(map[string]int32)
	}
	c.setKeys[string(kb)] = s
	return s
}

func (c *compiled) newSet(groups []int32) int32 {
	s := &ruleSet{groups: groups}
	n := 0
	for _, gi := range groups {
		n += int(c.groups[gi].nmatch)
	}
	s.big = n > bigSet && c.dialect != Original
	if len(groups) == 1 {
		s.lo, s.hi = c.groups[groups[0]].matchable()
	} else {
		s.order = make([]int32, 0, n)
		for _, gi := range groups {
			lo, hi := c.groups[gi].matchable()
			for i := lo; i < hi; i++ {
				s.order = append(s.order, i)
			}
		}
		if !s.big && c.dialect != Original {
			o := s.order
			for i := 1; i < len(o); i++ {
				x := o[i]
				j := i
				for j > 0 && better(&c.rules[x], &c.rules[o[j-1]]) {
					o[j] = o[j-1]
					j--
				}
				o[j] = x
			}
		}
	}
	c.sets = append(c.sets, s)
	return int32(len(c.sets) - 1)
}

// ruleIDs calls fn with the index of every matchable rule of the set.
func (s *ruleSet) ruleIDs(fn func(int32)) {
	if s.order != nil {
		for _, i := range s.order {
			fn(i)
		}
		return
	}
	for i := s.lo; i < s.hi; i++ {
		fn(i)
	}
}

// eval returns the rule that decides for path in longest-match order, or
// nil when none matches. It does not allocate once the set's index exists.
func (c *compiled) eval(s *ruleSet, path string) *crule {
	if s.big {
		return c.evalIndexed(s, path)
	}
	if s.order != nil {
		for _, i := range s.order {
			if r := &c.rules[i]; c.match(r, path) {
				return r
			}
		}
		return nil
	}
	rs := c.rules[s.lo:s.hi]
	for i := range rs {
		if c.match(&rs[i], path) {
			return &rs[i]
		}
	}
	return nil
}

// scan returns the deciding rule among the matchable rules of groups, in
// any order: the best in longest-match order, or with first set, the first
// match in file order. Rules with a flag in skip are passed over.
func (c *compiled) scan(groups []int32, path string, skip uint8, first bool) *crule {
	var best *crule
	for _, gi := range groups {
		lo, hi := c.groups[gi].matchable()
		for i := lo; i < hi; i++ {
			r := &c.rules[i]
			if r.flags&skip != 0 || !c.match(r, path) {
				continue
			}
			if first {
				if best == nil || r.line < best.line {
					best = r
				}
				break
			}
			if best == nil || better(r, best) {
				best = r
			}
		}
	}
	return best
}

// isGlobalAgent reports whether a user-agent value names every crawler:
// '*' alone or followed by white space (Google's reading).
func isGlobalAgent(v string) bool {
	return len(v) > 0 && v[0] == '*' && (len(v) == 1 || isSpace(v[1]))
}

func equalFoldASCII(a, b string) bool {
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
