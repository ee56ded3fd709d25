package robotstxt

import (
	"slices"
	"strings"
	"sync/atomic"
	"unsafe"
)

// Compiling a rule set, on its first question: its rules gathered from its
// groups' rule lines, normalised, put in precedence order (build_sort.go)
// and laid out in a hot block (build_hot.go) or, for a large set, indexed
// (build_index.go). The answering code asks for a set through coldSet
// (answer.go), which calls compileOnce the first time.

func (c *compiled) compileOnce(s *ruleSet, i int32) {
	s.once.Do(func() {
		c.compileSet(s)
		s.ready.Store(true)
		if s.hot == nil {
			return
		}
		// Questions find the hot block from the token table, and for
		// '*' from starHot: a set may serve both.
		hot := unsafe.Pointer(&s.hot[0])
		k := i
		if i == starSet {
			k = c.starIdx
		}
		if c.global == starSet && k == c.starIdx {
			atomic.StorePointer(&c.starHot, hot)
		}
		for _, t := range c.setToks[c.setTokAt[k]:c.setTokAt[k+1]] {
			atomic.StorePointer(&c.fast[t].hot, hot)
		}
	})
}

// compileSet compiles the rule lines of the set's groups: it normalises
// their patterns, orders them and, for a large set, indexes them.
func (c *compiled) compileSet(s *ruleSet) {
	s.body = c.body
	s.first = c.dialect.FirstMatch()
	n := 0
	for _, gi := range s.groups {
		n += int(c.groups[gi].hi - c.groups[gi].lo)
	}
	if n <= smallSet && !s.first {
		// Built on the stack, then kept with the hot block in one
		// allocation (a line gives two rules at most).
		var buf [2 * smallSet]crule
		c.compileSmall(s, c.collectRules(s, buf[:0]))
		return
	}
	rules := c.collectRules(s, make([]crule, 0, n+n/8+1))
	s.rules = rules
	k := int(s.nmatch)
	if k > hotMax || k > bigSet && s.first {
		s.big = true
		return
	}
	if s.first {
		return // the first match wins: keep file order
	}
	if k > bigSet {
		// Over bigSet rules, a set whose hot block would have a
		// question scan more than bigSet slots is indexed (the index
		// orders the rules itself), as is one that cannot have a hot
		// block.
		if _, _, _, run := s.hotPlan(rules[:k], nil); run > bigSet {
			s.big = true
			return
		}
	}
	sortPrecedence(rules[:k])
	if blk := s.buildHot(rules[:k], 0); blk != nil {
		s.hot = blk
	}
	s.big = k > bigSet && s.hot == nil
}

// smallSet is the most rule lines of a set compiled by compileSmall.
const smallSet = 8

// compileSmall keeps rules, the compiled rules of a small set in
// longest-match order (collectRules), with the set's hot block: the block
// first, then the rules, in one allocation. rules is not kept.
func (c *compiled) compileSmall(s *ruleSet, rules []crule) {
	k := int(s.nmatch)
	sortPrecedence(rules[:k])
	const ruleWords = int(unsafe.Sizeof(crule{}) / 8)
	blk := s.buildHot(rules[:k], ruleWords*len(rules))
	if blk == nil {
		s.rules = slices.Clone(rules)
		return
	}
	n := int(uint32(blk[0])) // the block's own length
	s.hot = blk[:n:n]
	s.rules = unsafe.Slice((*crule)(unsafe.Pointer(unsafe.SliceData(blk[n:]))), len(rules))
	copy(s.rules, rules)
}

// collectRules appends the compiled rules of the set's rule lines to
// rules, the matchable ones first (in file order), then the others, and
// sets what the set notes of them.
func (c *compiled) collectRules(s *ruleSet, rules []crule) []crule {
	var arena strings.Builder
	for _, gi := range s.groups {
		g := &c.groups[gi]
		for _, raw := range c.raws[g.lo:g.hi] {
			rules = c.addRule(rules, raw, &arena)
		}
	}
	s.extra = arena.String()
	k := 0
	var dead []crule
	wild := 0
	for i := range rules {
		r := &rules[i]
		if r.flags&ruleDead != 0 {
			dead = append(dead, *r)
			continue
		}
		if r.flags&ruleWild != 0 {
			wild++
		}
		if k != i {
			rules[k] = *r
		}
		k++
	}
	copy(rules[k:], dead)
	s.nmatch = int32(k)
	s.manyWild = wild >= 4
	s.nwild = int32(wild)
	return rules
}

// addRule compiles one allow or disallow line and appends it to rules.
// Patterns that are not the value as written go to arena.
func (c *compiled) addRule(rules []crule, raw rawRule, arena *strings.Builder) []crule {
	var flags uint8
	if raw.allow() {
		flags = ruleAllow
	}
	v := c.body[raw.off : raw.off+raw.n]
	pat := v
	switch c.dialect {
	case Original:
		pat = decodeOriginal(v)
	case Baidu:
		pat = decodeBaidu(v, false)
	case RFC9309:
		pat = normalizeRFCPattern(v)
	default:
		if c.mayEscape(v) {
			pat = EscapePattern(v)
		}
	}
	off := int(raw.off)
	if pat != v {
		off = arena.Len()
		arena.WriteString(pat)
		flags |= ruleExtra
	}
	rules = c.addCompiled(rules, pat, off, raw.lineNum(), flags)
	if c.dialect == Google && flags&ruleAllow != 0 {
		// Google: an allow of .../index.htm(l) also allows its directory,
		// as the pattern "dir/$", when the allow itself does not match.
		if i := strings.LastIndexByte(pat, '/'); i >= 0 && strings.HasPrefix(pat[i:], "/index.htm") {
			off := arena.Len()
			arena.WriteString(pat[:i+1])
			arena.WriteByte('$')
			rules = c.addCompiled(rules, pat[:i+1]+"$", off, raw.lineNum(), ruleAllow|ruleExtra|ruleIndexHTM)
		}
	}
	return rules
}

// addCompiled appends the rule of a normalised pattern stored at off in the
// arena (or the body) to rules. The rule is filled in where it is kept
// (a rule is 40 bytes: copies cost).
func (c *compiled) addCompiled(rules []crule, pat string, off int, line int32, flags uint8) []crule {
	rules = append(rules, crule{})
	r := &rules[len(rules)-1]
	c.classifyRule(r, pat, off, line, flags)
	r.wlen = uint8(min(r.lit, 8))
	r.word = word8(pat[:r.wlen])
	return rules
}

// classifyRule sets rule r, zero, for a normalised pattern stored at off.
func (c *compiled) classifyRule(r *crule, pat string, off int, line int32, flags uint8) {
	r.off, r.n, r.line, r.flags = uint32(off), uint32(len(pat)), line, flags
	if c.dialect == Original {
		// No wildcards; an empty value blocks nothing.
		r.lit = r.n
		if pat == "" || pat[0] != '/' {
			r.flags |= ruleDead
		}
		return
	}
	if c.dialect == Baidu && pat == "" {
		r.flags |= ruleDead // as the draft: an empty value blocks nothing
		return
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
}
