package robotstxt

import (
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
		c: c, draft: d.DraftRecords(), cur: -1,
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
