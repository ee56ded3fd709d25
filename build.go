package robotstxt

import (
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// Building a compiled file: reading the body into groups (builder, fed by
// readFast or the lexer), laying out the token table and the rule sets on
// the first question that needs them (prepare, finish) and adding tokens to
// the table. The rules of a set are compiled later, on the set's first
// question (build_set.go).

// build reads body in dialect d's reading: groups, tokens and extension
// fields. Rules are compiled later, per set.
func (c *compiled) build(body string, d Dialect) { c.buildWith(body, d, true) }

// buildWith is build; fast false reads every line through the lexer, which
// readFast must agree with (the tests compare them).
func (c *compiled) buildWith(body string, d Dialect, fast bool) {
	c.dialect = d
	c.body = body
	c.global = noSet
	switch {
	case d != Google && d != Bing && d != Yandex:
	case hasHighByte(body):
		c.escape = 2
	case strings.IndexByte(body, '%') >= 0:
		c.escape = 1
	}
	c.mode = d.reading()
	if c.mode == readGoogle && strings.IndexByte(body, 0) < 0 {
		c.mode = readGoogleNoNUL
	}
	c.ext.body = body
	// The lists most lines add to are built in pooled scratch lists, so
	// that a parse grows none of them, then copied into one array of the
	// size they came to. The builder lives in this frame: storing the
	// lists into it costs no write barrier while the collector runs.
	sc := scratchPool.Get().(*parseScratch)
	b := builder{
		c: c, draft: d.draftRecords(), cur: -1,
		raws: sc.raws[:0], agents: sc.agents[:0], groups: sc.groups[:0], global: sc.global[:0],
	}
	if fast && c.mode == readGoogleNoNUL {
		b.readFast(body)
	} else {
		lx := newLexer(body, c.mode)
		for {
			line, ok := lx.next()
			if !ok {
				break
			}
			b.line(&line)
		}
	}
	c.setLists(b.raws, b.agents, b.groups, b.global)
	sc.raws, sc.agents, sc.groups, sc.global = b.raws[:0], b.agents[:0], b.groups[:0], b.global[:0]
	if 12*cap(sc.raws)+16*cap(sc.agents)+24*cap(sc.groups)+4*cap(sc.global) <= maxScratch {
		scratchPool.Put(sc)
	}
	// Do not keep mostly empty arrays.
	c.exts = clipSlice(c.exts)
	c.orphans = clipSlice(c.orphans)
	c.ext.done()
}

// parseScratch is the lists a reading is built in (see buildWith).
type parseScratch struct {
	raws   []rawRule
	agents []agentLine
	groups []group
	global []int32
}

var scratchPool = sync.Pool{New: func() any { return new(parseScratch) }}

// maxScratch is the most bytes of scratch lists the pool keeps: those a
// large file grew are left to the collector.
const maxScratch = 256 << 10

// setLists copies the parsed lists into one array of their size: their
// elements hold no pointer and four-byte fields only, so they can share
// an array of uint32.
func (c *compiled) setLists(raws []rawRule, agents []agentLine, groups []group, global []int32) {
	n := wordsOf(raws) + wordsOf(agents) + wordsOf(groups) + wordsOf(global)
	if n == 0 {
		return
	}
	blk := make([]uint32, n)
	c.raws, blk = carve(blk, raws)
	c.agents, blk = carve(blk, agents)
	c.groups, blk = carve(blk, groups)
	c.globalGroups, _ = carve(blk, global)
}

// wordsOf is the number of four-byte words the elements of s take.
func wordsOf[T any](s []T) int {
	var zero T
	return len(s) * int(unsafe.Sizeof(zero)/4)
}

// carve copies s to the start of blk, as a []T there (nil when s is
// empty), and returns it and the rest of blk.
func carve[T any](blk []uint32, s []T) ([]T, []uint32) {
	if len(s) == 0 {
		return nil, blk
	}
	dst := unsafe.Slice((*T)(unsafe.Pointer(&blk[0])), len(s))
	copy(dst, s)
	return dst, blk[wordsOf(s):]
}

// builder gathers the groups of a reading while its lines are read.
type builder struct {
	c     *compiled
	draft bool // records end at blank lines (the draft's dialects)
	cur   int  // the group being read, -1 when none
	// usageRule: the group being read has a Content-Usage line, which
	// RFC 9309 as draft-ietf-aipref-attach updates it counts as a rule.
	usageRule bool
	raws      []rawRule
	agents    []agentLine
	groups    []group
	global    []int32      // the groups naming '*'
	counts    *groupCounts // what a first reading counts, once a list needs it
}

// The lists whose bound growBy asks for.
const (
	boundAgents = iota
	boundGroups
	boundExts
)

// bound returns the most elements list (boundAgents, ...) needs: the
// number a first reading of the whole body counts.
//
//go:noinline
func (b *builder) bound(list int) int {
	if b.counts == nil {
		b.counts = b.c.countGroups(b.c.body)
	}
	switch list {
	case boundAgents:
		return b.counts.agents
	case boundGroups:
		return b.counts.groups
	}
	return b.counts.exts
}

// growBy is grow for a list whose bound b counts.
func growBy[T any](s []T, b *builder, list int) []T {
	switch {
	case len(s) < cap(s):
		return s
	case cap(s) < 256:
		return slices.Grow(s, max(len(s), 4))
	}
	return slices.Grow(s, max(b.bound(list)-len(s), len(s)/4, 1))
}

// line adds one line of any kind.
func (b *builder) line(ln *lexLine) {
	c := b.c
	if b.draft && ln.flags&flagEmpty != 0 {
		b.cur = -1 // the draft separates records by blank lines
		return
	}
	switch ln.field {
	case FieldUserAgent:
		b.agent(int32(ln.num), ln.start+ln.valOff, ln.value)
	case FieldAllow, FieldDisallow:
		b.rule(int32(ln.num), ln.start+ln.valOff, len(ln.value), ln.field == FieldAllow)
	case FieldSitemap:
		c.ext.addSitemap(ln)
	case FieldCrawlDelay, FieldRequestRate, FieldVisitTime:
		if b.cur < 0 {
			return
		}
		g := &b.groups[b.cur]
		if g.ext == 0 {
			c.exts = append(growBy(c.exts, b, boundExts), groupExt{})
			g.ext = int32(len(c.exts))
			c.groupExts = true
		}
		c.exts[g.ext-1].add(ln)
		g.last = int32(ln.num)
	case FieldCleanParam, FieldHost:
		c.ext.add(ln)
	case FieldContentUsage, FieldContentSignal:
		b.addAI(ln)
	}
}

// agent adds a user-agent line whose value, as written and trimmed, is
// value, at off in the body.
func (b *builder) agent(num int32, off int, value string) {
	if b.cur < 0 || b.groups[b.cur].hi > b.groups[b.cur].lo || b.usageRule {
		b.usageRule = false
		n := int32(len(b.raws))
		b.groups = append(growBy(b.groups, b, boundGroups), group{alo: int32(len(b.agents)), ahi: int32(len(b.agents)), lo: n, hi: n})
		b.cur = len(b.groups) - 1
	}
	a := agentLine{line: num, off: uint32(off), n: uint32(len(value))}
	if isGlobalAgent(value) {
		a.tlen = agentGlobal
		if k := len(b.global); k == 0 || b.global[k-1] != int32(b.cur) {
			b.global = append(growBy(b.global, b, boundGroups), int32(b.cur))
		}
	} else {
		a.tlen = uint32(len(ExtractToken(value)))
	}
	b.agents = append(growBy(b.agents, b, boundAgents), a)
	g := &b.groups[b.cur]
	g.ahi++
	g.last = num
}

// rule adds an allow or disallow line whose value is n bytes at off in
// the body.
func (b *builder) rule(num int32, off, n int, allow bool) {
	if b.cur < 0 || len(b.raws) == cap(b.raws) {
		b.ruleSlow(num, off, n, allow)
		return
	}
	line := uint32(num)
	if allow {
		line |= rawAllow
	}
	b.raws = append(b.raws, rawRule{off: uint32(off), n: uint32(n), line: line})
	g := &b.groups[b.cur]
	g.hi = int32(len(b.raws))
	g.last = num
}

// ruleSlow is rule for a rule before any group, or when the list is full.
func (b *builder) ruleSlow(num int32, off, n int, allow bool) {
	if b.cur < 0 {
		b.c.orphans = append(grow(b.c.orphans, b.c.ext.linesBound), num)
		return
	}
	b.raws = grow(b.raws, b.c.ext.linesBound)
	b.rule(num, off, n, allow)
}

// clipSlice returns s, copied into an array of its length when more than
// a quarter of its capacity is unused: parsing sizes lists for the most
// lines they can take.
func clipSlice[T any](s []T) []T {
	if cap(s)-len(s) <= len(s)/4+4 {
		return s
	}
	if len(s) == 0 {
		return nil
	}
	return append([]T(nil), s...)
}

// grow returns s with room for one more element. A small list doubles; a
// list of 256 elements or more is given the room bound says it can ever
// need, so that its arrays add up to little more than the last.
func grow[T any](s []T, bound func() int) []T {
	switch {
	case len(s) < cap(s):
		return s
	case cap(s) < 256:
		return slices.Grow(s, max(len(s), 4))
	}
	return slices.Grow(s, max(bound()-len(s), len(s)/4, 1))
}

// groupCounts are the numbers of user-agent lines, groups and groups with
// extension fields a reading finds.
type groupCounts struct{ agents, groups, exts int }

// countGroups reads body as build does, only counting.
func (c *compiled) countGroups(body string) *groupCounts {
	var n groupCounts
	open, rules, ext := false, false, false // the state of the current group
	lex(body, c.mode, func(ln *lexLine) {
		if c.dialect == Original && ln.flags&flagEmpty != 0 {
			open = false
			return
		}
		switch ln.field {
		case FieldUserAgent:
			if !open || rules {
				n.groups++
				open, rules, ext = true, false, false
			}
			n.agents++
		case FieldAllow, FieldDisallow:
			rules = rules || open
		case FieldContentUsage:
			// A rule in RFC 9309 as the AI preferences draft updates it
			// (see builder.usageRule).
			rules = rules || open && c.dialect == RFC9309 && ln.flags&flagMissingColon == 0
		case FieldCrawlDelay, FieldRequestRate, FieldVisitTime:
			if open && !ext {
				ext = true
				n.exts++
			}
		}
	})
	return &n
}

func (c *compiled) prepareSlow() {
	c.prepOnce.Do(func() {
		c.finish()
		c.prepared.Store(true)
	})
}

// finish indexes the tokens and lays out the sets.
func (c *compiled) finish() {
	named := 0 // user-agent lines naming a token: a bound on the tokens
	for _, a := range c.agents {
		if !a.global() {
			named++
		}
	}
	c.fast, c.lens = c.fastBuf[:0], 0
	if named > len(c.fastBuf) {
		c.fast = make([]tokenFast, 0, named)
	}
	c.toks = make([]tokenEntry, 0, named)
	var tokBuf [64]int32
	tokOf := tokBuf[:] // per agent line, its token
	if len(c.agents) > len(tokBuf) {
		tokOf = make([]int32, len(c.agents))
	}
	for gi := range c.groups {
		g := &c.groups[gi]
		for ai := g.alo; ai < g.ahi; ai++ {
			if a := c.agents[ai]; !a.global() {
				tokOf[ai] = c.addToken(c.agentToken(a))
				c.toks[tokOf[ai]].nlines++
			}
		}
	}
	// Many lines naming few tokens: do not keep the room for more.
	c.toks = clipSlice(c.toks)
	if cap(c.fast) > len(c.fastBuf) && len(c.fast) <= len(c.fastBuf) {
		c.fast = c.fastBuf[:copy(c.fastBuf[:], c.fast)]
	} else {
		c.fast = clipSlice(c.fast)
	}
	// The lines of each token, together (so that a question naming a
	// token lists them without reading every group), and its groups (a
	// token has no more groups than lines), then the sets' groups and
	// tokens, in one array: nsets (below) is at most a set a group, a
	// token and '*'.
	n := int32(0)
	for i := range c.toks {
		n += c.toks[i].nlines
	}
	ng, nt := int32(len(c.groups)), int32(len(c.toks))
	all := make([]int32, 2*n+ng+nt+ng+nt+2)
	c.tokLines = all[:n:n]
	groups := all[n : 2*n]
	ids := all[2*n : 2*n+ng : 2*n+ng]
	c.setToks = all[2*n+ng : 2*n+ng+nt : 2*n+ng+nt]
	setTokAt := all[2*n+ng+nt:] // (footprint counts its cap: all of the rest)
	n = 0
	for i := range c.toks {
		e := &c.toks[i]
		e.lines, n = n, n+e.nlines
		e.groups = groups[e.lines:e.lines:n] // (footprint counts its cap)
		e.nlines = 0
	}
	for gi := range c.groups {
		g := &c.groups[gi]
		for ai := g.alo; ai < g.ahi; ai++ {
			if a := &c.agents[ai]; !a.global() {
				e := &c.toks[tokOf[ai]]
				c.tokLines[e.lines+e.nlines] = a.line
				e.nlines++
				if k := len(e.groups); k == 0 || e.groups[k-1] != int32(gi) {
					e.groups = append(e.groups, int32(gi))
				}
			}
		}
	}
	// Sets: set i is group i alone; then one per token or '*' that names
	// several groups.
	nsets := len(c.groups)
	for i := range c.toks {
		if len(c.toks[i].groups) > 1 {
			nsets++
		}
	}
	if len(c.globalGroups) > 1 {
		nsets++ // the '*' set, last
	}
	c.sets = make([]ruleSet, nsets)
	for gi := range c.groups {
		ids[gi] = int32(gi)
		c.sets[gi].groups = ids[gi : gi+1 : gi+1]
	}
	next := int32(len(c.groups))
	setFor := func(groups []int32) int32 {
		if len(groups) == 1 {
			return groups[0]
		}
		c.sets[next].groups = groups
		next++
		return next - 1
	}
	for i := range c.toks {
		c.toks[i].set = setFor(c.toks[i].groups)
		c.fast[i].set = c.toks[i].set
	}
	// The tokens of each set (a group's set may serve several), so that
	// a compiled set is published to them without a pass over them all.
	c.setTokAt = setTokAt[:len(c.sets)+1]
	for i := range c.fast {
		c.setTokAt[c.fast[i].set+1]++
	}
	for i := 1; i < len(c.setTokAt); i++ {
		c.setTokAt[i] += c.setTokAt[i-1]
	}
	var fillBuf [64]int32
	fill := fillBuf[:]
	if len(c.sets) > len(fillBuf) {
		fill = make([]int32, len(c.sets))
	}
	copy(fill, c.setTokAt[:len(c.sets)])
	for i := range c.fast {
		s := c.fast[i].set
		c.setToks[fill[s]] = int32(i)
		fill[s]++
	}
	switch len(c.globalGroups) {
	case 0:
	case 1:
		// '*' names one group: its set is that group's, compiled once
		// for '*' and for the tokens that name the group too.
		c.starIdx = c.globalGroups[0]
		c.global = starSet
	default:
		c.starIdx = int32(len(c.sets) - 1)
		c.sets[c.starIdx].groups = c.globalGroups
		c.global = starSet
	}
}

// addToken records tok, if new, and returns its index in toks.
func (c *compiled) addToken(tok string) int32 {
	i := c.findToken(tok)
	if i < 0 {
		i = int32(len(c.toks))
		c.toks = append(c.toks, tokenEntry{tok: tok, set: -1})
		f0, f1 := foldWords(tok)
		c.fast = append(c.fast, tokenFast{fp0: f0, fp1: f1, n: int32(len(tok)), set: -1})
		c.lens |= 1 << (len(tok) % 64)
		switch {
		case c.slots != nil && 2*len(c.toks) <= len(c.slots):
			c.slot(i)
		case len(c.toks) > 8:
			// Grow the table to keep it at most half full.
			size := 32 // a power of two, so that a mask wraps the probes
			for size < 4*len(c.toks) {
				size *= 2
			}
			c.slots = make([]int32, size)
			for j := range c.slots {
				c.slots[j] = -1
			}
			for j := range c.toks {
				c.slot(int32(j))
			}
		}
	}
	return i
}

// slot puts token i in the open-addressing table.
func (c *compiled) slot(i int32) {
	e := &c.fast[i]
	mask := uint64(len(c.slots) - 1)
	for h := tokHash(e.fp0, e.fp1, int(e.n)) & mask; ; h = (h + 1) & mask {
		if c.slots[h] < 0 {
			c.slots[h] = i
			return
		}
	}
}

// isGlobalAgent reports whether a user-agent value names every crawler:
// '*' alone or followed by white space (Google's reading).
func isGlobalAgent(v string) bool {
	return len(v) > 0 && v[0] == '*' && (len(v) == 1 || isSpace(v[1]))
}
