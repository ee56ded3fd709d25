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

	sets    []ruleSet        // the rule sets crawlers are matched against
	setKeys map[string]int32 // merged sets by their groups
	toks    []tokenEntry     // the product tokens the file names
	tokMap  map[uint64]int32 // token hash -> first toks index, when there are many
	global  int32            // the set of the '*' groups; -1 when there is none

	// escape says which values may need Google's escaping: 0 none (the
	// body has no '%' and no byte >= 0x80), 1 those holding '%', 2 all.
	escape uint8

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
	next   int32 // the next entry with the same hash, -1 for none
}

// crule is a compiled allow or disallow rule.
type crule struct {
	off, n uint32 // the normalised pattern is base[off:off+n]; n is the rule's weight
	lit    uint32 // the length of its literal prefix: up to the first '*', without a final '$'
	line   int32
	need   uint32 // wildcard rules: byteClasses of the literal bytes after the prefix
	flags  uint8
}

// byteClasses sets bit b&31 for every byte b of s: a path can only match a
// wildcard pattern whose literal bytes' classes it all has.
func byteClasses(s string) uint32 {
	var m uint32
	for i := 0; i < len(s); i++ {
		m |= 1 << (s[i] & 31)
	}
	return m
}

// pathClasses is the byteClasses of a path, computed on first need.
type pathClasses struct {
	bits uint32
	done bool
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

// match reports whether rule r matches path. With pc non-nil, a wildcard
// rule is first checked against the classes of the path's bytes.
func (c *compiled) match(r *crule, path string, pc *pathClasses) bool {
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
	if pc != nil {
		if !pc.done {
			pc.bits, pc.done = byteClasses(path), true
		}
		if r.need&^pc.bits != 0 {
			return false
		}
	}
	return globMatch(path[len(lit):], c.base[r.off+r.lit:r.off+r.n], r.flags&ruleAnchored != 0)
}

// ruleSet is the rules that apply to one crawler: those of every group
// naming one token, or of every '*' group.
type ruleSet struct {
	groups   []int32
	lo, hi   int32   // one small group: its matchable rules, rules[lo:hi], in precedence order
	order    []int32 // several small groups: their matchable rules in precedence order
	big      bool    // more than bigSet rules: searched through an index
	manyWild bool    // enough wildcard rules that a byte-class check pays
	lazy     *lazyIndex
}

// lazyIndex is a large set's index, built on its first question.
type lazyIndex struct {
	once sync.Once
	idx  *ruleIndex
}

// build reads body in dialect d's reading and compiles it. Patterns that are
// not substrings of body are appended to arena; for the google reading the
// arena starts with body itself.
func (c *compiled) build(body string, d Dialect, arena *strings.Builder) {
	c.dialect = d
	c.global = -1
	// Every rule is a line: size the rules for the lines there are.
	lines := strings.Count(body, "\n")
	if lines == 0 {
		lines = strings.Count(body, "\r")
	}
	c.rules = make([]crule, 0, lines+1)
	switch {
	case hasHighByte(body):
		c.escape = 2
	case strings.IndexByte(body, '%') >= 0:
		c.escape = 1
	}
	cur := -1
	mode := d.reading()
	if mode == readGoogle && strings.IndexByte(body, 0) < 0 {
		mode = readGoogleNoNUL
	}
	lex(body, mode, func(ln *lexLine) {
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
		pat = v
		if c.escape == 2 || c.escape == 1 && strings.IndexByte(v, '%') >= 0 {
			pat = EscapePattern(v)
		}
		if pat == v {
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
		for _, b := range []byte(body[star:]) {
			if b != '*' {
				r.need |= 1 << (b & 31)
			}
		}
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
		c.toks = append(c.toks, tokenEntry{tok: tok, set: -1, next: -1})
		if c.tokMap != nil {
			c.hashToken(i)
		} else if len(c.toks) > 8 {
			c.tokMap = make(map[uint64]int32, 32)
			for j := range c.toks {
				c.hashToken(int32(j))
			}
		}
	}
	e := &c.toks[i]
	if n := len(e.groups); n == 0 || e.groups[n-1] != gi {
		e.groups = append(e.groups, gi)
	}
}

func (c *compiled) hashToken(i int32) {
	h := foldHash(c.toks[i].tok)
	if first, ok := c.tokMap[h]; ok {
		c.toks[i].next = first
	}
	c.tokMap[h] = i
}

// foldHash is FNV-1a over s with ASCII letters folded to lower case.
func foldHash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		b := s[i]
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		h = (h ^ uint64(b)) * 1099511628211
	}
	return h
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
	i, ok := c.tokMap[foldHash(tok)]
	for ok && i >= 0 {
		if t := c.toks[i].tok; len(t) == len(tok) && equalFoldASCII(t, tok) {
			return i
		}
		i = c.toks[i].next
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
	s := ruleSet{groups: groups}
	n, wild := 0, 0
	for _, gi := range groups {
		lo, hi := c.groups[gi].matchable()
		n += int(hi - lo)
		for i := lo; i < hi; i++ {
			if c.rules[i].flags&ruleWild != 0 {
				wild++
			}
		}
	}
	s.big = n > bigSet && c.dialect != Original
	s.manyWild = wild >= 4
	if s.big {
		s.lazy = new(lazyIndex)
	}
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
	var pcs pathClasses
	var pc *pathClasses
	if s.manyWild {
		pc = &pcs
	}
	if s.big {
		return c.evalIndexed(s, path, pc)
	}
	if s.order != nil {
		for _, i := range s.order {
			if r := &c.rules[i]; c.match(r, path, pc) {
				return r
			}
		}
		return nil
	}
	rs := c.rules[s.lo:s.hi]
	for i := range rs {
		if c.match(&rs[i], path, pc) {
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
			if r.flags&skip != 0 || !c.match(r, path, nil) {
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

// hasHighByte reports whether s holds a byte of 0x80 or above, eight bytes
// at a time.
func hasHighByte(s string) bool {
	for len(s) >= 8 {
		w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		if w&0x8080808080808080 != 0 {
			return true
		}
		s = s[8:]
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}
