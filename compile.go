package robotstxt

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Set numbers that are not positions in compiled.sets.
const (
	noSet   int32 = -1 // no set applies
	starSet int32 = -2 // the '*' set (compiled.starIdx in compiled.sets)
)

// bigSet is the number of rules above which a rule set is searched through
// an index instead of scanned, unless (up to hotMax rules) its hot block
// has no question scan more than bigSet slots.
const bigSet = 128

// hotMax is the most rules a hot block holds (a slot notes its rule's
// position in a byte).
const hotMax = 256

// compiled is one dialect's reading of a file. Parsing reads every line and
// builds the groups (their user-agent lines, rule lines and extension
// fields); Allowed answers the first questions from them (see first.go);
// the token table and the rule sets are laid out after that, or on the
// first question of another kind (prepare), and the rules of a set are
// compiled on the set's first question (see ruleSet), so that a crawler
// pays only for the groups that apply to it.
type compiled struct {
	// The fields Allowed reads come first, within one 128-byte pair of
	// cache lines (a Robots starts 8 bytes into a slot of its size class,
	// a multiple of 128: the allocator's header comes first): the token
	// table and, for a file naming two tokens or fewer, its entries,
	// which point at the sets' hot blocks. Most questions read nothing
	// else of the file but the hot block.
	prepared atomic.Bool    // the token table and the sets are built
	global   int32          // starSet, or noSet when no group names '*'
	starHot  unsafe.Pointer // the '*' set's hot block once compiled, when it has one (atomic)
	fast     []tokenFast    // per toks entry, what a lookup reads first
	lens     uint64         // bit n%64 for each token's length n: most lookups end here
	fastBuf  [2]tokenFast
	slots    []int32   // open-addressing table of toks indexes (-1: empty), when there are many
	sets     []ruleSet // set i is group i alone; then one per token naming several groups; then the '*' set when '*' names several
	starIdx  int32     // the '*' set's place in sets
	// The tokens whose set is set i: setToks[setTokAt[i]:setTokAt[i+1]].
	setTokAt, setToks []int32

	prepOnce sync.Once
	rawAsked atomic.Int32 // the questions answered from the lines, and tried (see allowedRaw)

	dialect Dialect
	mode    reading
	body    string
	toks    []tokenEntry // the product tokens the file names

	agents   []agentLine // every user-agent line; group g owns agents[g.alo:g.ahi]
	tokLines []int32     // the lines naming each token, one token after another (see tokenEntry)
	raws     []rawRule   // every rule line of a group, in file order
	groups   []group
	exts     []groupExt // the groups' extension fields (see group.ext)

	groupExts bool // some group has extension fields (crawl-delay, ...)

	// escape says which values may need Google's escaping: 0 none (the
	// body has no '%' and no byte >= 0x80), 1 those holding '%', 2 all.
	escape uint8

	globalGroups []int32
	orphans      []int32 // lines of rules before any user-agent line
	ext          fileExt

	// Indexes of the user-agent lines for the questions that do not
	// name a product token, built on the first (see choose).
	draftOnce, looseOnce sync.Once
	draft                *draftIndex
	loose                *looseIndex

	ai *aiLines // the groups' Content-Usage and Content-Signal lines; nil when none
}

// group is one group (record) of the file. The parsed form of a file keeps
// one per group, one agentLine per user-agent line and one rawRule per rule
// line: they are kept small, with strings as offsets into the body, so that
// a file of short lines keeps few bytes per byte of input.
type group struct {
	alo, ahi int32 // its user-agent lines: agents[alo:ahi]
	lo, hi   int32 // its rule lines: raws[lo:hi]
	last     int32 // its last line
	ext      int32 // 1 + the index in compiled.exts of its extension fields; 0 when none
}

// rawRule is an allow or disallow line as parsing found it; its set
// compiles it.
type rawRule struct {
	off, n uint32 // the value is body[off:off+n]
	line   uint32 // the line number, with rawAllow set for an allow line
}

const rawAllow = 1 << 31

func (r rawRule) allow() bool    { return r.line&rawAllow != 0 }
func (r rawRule) lineNum() int32 { return int32(r.line &^ rawAllow) }

// agentLine is one user-agent line.
type agentLine struct {
	line   int32
	off, n uint32 // the value as written (trimmed) is body[off:off+n]
	tlen   uint32 // the product token read from it is the value's first tlen bytes; agentGlobal for '*'
}

// agentGlobal is agentLine.tlen for a line naming every crawler.
const agentGlobal = ^uint32(0)

func (a agentLine) global() bool { return a.tlen == agentGlobal }

// agentValue returns the value of user-agent line a as written (trimmed).
func (c *compiled) agentValue(a agentLine) string { return c.body[a.off : a.off+a.n] }

// agentToken returns the product token user-agent line a names; "*" for
// the global group.
func (c *compiled) agentToken(a agentLine) string {
	if a.global() {
		return "*"
	}
	return c.body[a.off : a.off+a.tlen]
}

// extOf returns the extension fields of group gi, or nil.
func (c *compiled) extOf(gi int) *groupExt {
	if e := c.groups[gi].ext; e > 0 {
		return &c.exts[e-1]
	}
	return nil
}

// tokenFast is the part of a token entry a lookup reads, packed.
type tokenFast struct {
	fp0, fp1 uint64 // foldWord8 of the token's bytes 0-7 and 8-15
	n        int32  // the token's length
	set      int32
	hot      unsafe.Pointer // the set's hot block once compiled, when it has one (atomic)
}

// tokenEntry is one product token the file names, and the groups naming it.
type tokenEntry struct {
	tok    string  // as first written; compared ignoring ASCII case
	groups []int32 // in file order
	set    int32
	// The user-agent lines naming it are tokLines[lines:lines+nlines],
	// in file order.
	lines, nlines int32
}

// crule is a compiled allow or disallow rule. It holds no pointer.
type crule struct {
	word   uint64 // the first wlen bytes of the literal prefix, little-endian: a quick first check
	off, n uint32 // the normalised pattern is base[off:off+n]; n is the rule's weight
	lit    uint32 // the length of its literal prefix: up to the first '*', without a final '$'
	line   int32
	need   uint32 // wildcard rules: byteClasses of the literal bytes after the prefix
	wlen   uint8
	flags  uint8
}

const (
	ruleAllow    uint8 = 1 << iota
	ruleWild           // the pattern holds a '*' wildcard
	ruleAnchored       // the pattern ends with the '$' anchor
	ruleIndexHTM       // implied by an allow of .../index.htm (Google)
	ruleDead           // no URL can match the pattern
	ruleExtra          // the pattern is in the set's arena, not in the body
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

// probe is a path being matched, with what quick checks need of it. The
// path may run past its end: Allowed hands over the rest of the URL without
// looking for the fragment ('#') or a NUL byte, which end the path, since
// most questions are settled by literal prefixes and no pattern holds either
// byte (see clean). Other callers give paths already cut.
type probe struct {
	path  string
	pw    uint64 // word8(path)
	bits  uint32 // byteClasses(path), once known
	state uint8  // probeNoClasses, probeClassesLater or probeClassesKnown
	cut   bool   // path has been cut at its end
}

const (
	probeNoClasses    = iota // the byte-class check is not used
	probeClassesLater        // used; bits not computed yet
	probeClassesKnown
)

func newProbe(path string, classes bool) probe {
	p := probe{path: path, pw: word8(path)}
	if classes {
		p.state = probeClassesLater
	}
	return p
}

// reject reports whether rule r cannot match the path, by looks that need
// neither the pattern nor, mostly, the path: the first bytes of the literal
// prefix, then, for a wildcard rule, the byte classes its pattern needs
// (computed on the first such rule).
func (p *probe) reject(r *crule) bool {
	if p.pw&wordMask[r.wlen] != r.word {
		return true
	}
	return r.need != 0 && p.state != probeNoClasses && p.rejectClasses(r)
}

// pathFor returns the path to match rule r against: the path cut at its
// first '#' or NUL byte, where Google's library ends it, or for a literal
// pattern (no '*', no '$') maybe the uncut path. A literal pattern matches
// the uncut path exactly when it matches the cut one: its bytes are neither
// '#' nor NUL, so a path that starts with them has no end within them. Only
// wildcard and anchored rules read the path to its end. (It must be called
// where p lives, not through a pointer handed to another function, so that
// the path does not escape.)
func (p *probe) pathFor(r *crule) string {
	if r.flags&(ruleWild|ruleAnchored) != 0 && !p.cut {
		p.cutEnd()
	}
	return p.path
}

// clean returns the path cut at its end.
func (p *probe) clean() string {
	if !p.cut {
		p.cutEnd()
	}
	return p.path
}

// cutEnd cuts the path at its first '#' or NUL byte. (Not inlined, so that
// pathFor is; the self-assignments do not make the path escape.)
//
//go:noinline
func (p *probe) cutEnd() {
	p.path = p.path[:pathEnd(p.path)]
	p.cut = true
}

// The byte classes may be those of the uncut path: a superset, so a rule
// is never wrongly rejected.
func (p *probe) rejectClasses(r *crule) bool {
	if p.state == probeClassesLater {
		p.bits, p.state = byteClasses(p.path), probeClassesKnown
	}
	return r.need&^p.bits != 0
}

// ruleSet is the rules that apply to one crawler: those of one group, of
// every group naming one token, or of every '*' group. Its rules are
// compiled on its first question.
type ruleSet struct {
	// The fields a question reads come first.
	ready    atomic.Bool // the rules are compiled
	indexed  atomic.Bool // idx is built
	big      bool        // searched through idx once built: more than hotMax matchable rules, or than bigSet without a hot block
	first    bool        // the first match in file order wins (the draft's dialects), not the longest
	manyWild bool        // enough wildcard rules that a byte-class check pays
	nmatch   int32
	rules    []crule // matchable rules in precedence order (file order for the draft), then the others
	body     string  // the parsed body (patterns that need no change point into it)
	// A small set in longest-match order is matched through its hot
	// block (see hot.go): its rules bucketed by the byte after the
	// leading '/', each bucket a run of copies, in one array.
	hot    []uint64
	extra  string // patterns normalised into a copy
	idx    *ruleIndex
	once   sync.Once
	groups []int32
	// A large set is scanned, rather than indexed, while its questions
	// have cost less than building the index would (see coldScans).
	nwild   int32 // matchable wildcard rules
	work    atomic.Int64
	idxOnce sync.Once
}

// coldScans is about how many questions about a short path a large set
// answers by trying every rule before it builds its index: building the
// index costs far more than one scan (tens of scans for a set of a few
// hundred rules), and most files are asked few questions. A question
// counts the rules it tries, and for each wildcard rule, which it may have
// to search the path for, a unit per 32 bytes of the path: the set is
// indexed once that work would pass coldScans times its rules. So the
// questions answered by a scan cost, all together, a small multiple of a
// scan with a short path, whatever their paths: less than building the
// index (which costs about a hundred such scans on real files), and
// linear in the set's size on hostile ones, where a long path among many
// wildcard rules has the index built on its first question.
const coldScans = 8

// index builds the set's index if it is not built yet.
func (s *ruleSet) index() {
	if !s.indexed.Load() {
		s.idxOnce.Do(func() {
			s.idx = s.buildIndex()
			s.indexed.Store(true)
		})
	}
}

// coldScan reports whether a large set not yet indexed answers a question
// about path by a scan; when it does not, the set is indexed.
func (s *ruleSet) coldScan(path string) bool {
	work := int64(s.nmatch) + int64(s.nwild)*int64(len(path)/32)
	if work <= coldScans*int64(s.nmatch) && s.work.Add(work) <= coldScans*int64(s.nmatch) {
		return true
	}
	s.index()
	return false
}

// before reports whether rule a beats rule b in the set's precedence
// order: file order in a first-match set, else longest-match order.
func (s *ruleSet) before(a, b *crule) bool {
	if s.first {
		return a.line < b.line
	}
	return better(a, b)
}

// base returns the string rule r's pattern lives in.
func (s *ruleSet) base(r *crule) string {
	if r.flags&ruleExtra != 0 {
		return s.extra
	}
	return s.body
}

// pat returns rule r's normalised pattern.
func (s *ruleSet) pat(r *crule) string { return s.base(r)[r.off : r.off+r.n] }

// matchRest reports whether rule r matches path once the probe has not
// rejected it: the path's first
// wlen bytes then equal those of the literal prefix, so once the path is
// known to be long enough, a rule whose literal prefix is that short is
// decided without reading its pattern.
func (s *ruleSet) matchRest(r *crule, path string) bool {
	lit := int(r.lit)
	if len(path) < lit {
		return false
	}
	if lit > int(r.wlen) {
		off := r.off + uint32(r.wlen)
		if path[r.wlen:lit] != s.base(r)[off:r.off+r.lit] {
			return false
		}
	}
	switch r.flags & (ruleWild | ruleAnchored) {
	case 0:
		return true
	case ruleAnchored:
		return len(path) == lit
	}
	return globMatch(path[lit:], s.base(r)[r.off+r.lit:r.off+r.n], r.flags&ruleAnchored != 0)
}

// eval returns the rule of set s that decides for path in longest-match
// order, or nil when none matches. It does not allocate. path may run on
// past a '#' or NUL byte, which end it (see probe).
func (s *ruleSet) eval(path string) *crule {
	if s.big {
		if !s.indexed.Load() && s.coldScan(path) {
			return s.scan(path, 0)
		}
		return s.evalIndexed(path, 0)
	}
	if s.hot != nil {
		if w2, ok := hotFind(s.hot, path); ok {
			return &s.rules[w2>>hotIdxShift]
		}
		return nil
	}
	p := newProbe(path, s.manyWild)
	rs := s.rules[:s.nmatch]
	for i := range rs {
		if r := &rs[i]; !p.reject(r) && s.matchRest(r, p.pathFor(r)) {
			return r
		}
	}
	return nil
}

// bucketMin is the number of rules from which a small set's hot block
// buckets them.
const bucketMin = 8

// maxBucketCopies bounds the rules a set's buckets hold, as a multiple of
// its rules.
const maxBucketCopies = 4

// decide returns the deciding rule of set s for path in the set's
// precedence order, passing over rules with a flag in skip, or nil.
func (s *ruleSet) decide(path string, skip uint8) *crule {
	switch {
	case s.big:
		if !s.indexed.Load() && s.coldScan(path) {
			return s.scan(path, skip)
		}
		return s.evalIndexed(path, skip)
	case skip == 0:
		return s.eval(path)
	}
	return s.scan(path, skip)
}

// scan returns the deciding rule of set s for path in the set's precedence
// order, trying every rule without the index. Rules with a flag in skip are
// passed over.
func (s *ruleSet) scan(path string, skip uint8) *crule {
	var best *crule
	p := newProbe(path, s.manyWild)
	rs := s.rules[:s.nmatch]
	for i := range rs {
		if r := &rs[i]; r.flags&skip == 0 && !p.reject(r) && s.matchRest(r, p.pathFor(r)) && (best == nil || s.before(r, best)) {
			best = r
		}
	}
	return best
}

// eachMatch calls fn for every rule of set s that matches path and has no
// flag in skip, in no particular order. A large set finds them through
// its index.
func (s *ruleSet) eachMatch(path string, skip uint8, fn func(*crule)) {
	if s.indexed.Load() {
		s.idx.each(s, path, skip, fn)
		return
	}
	s.scanEach(path, skip, fn)
}

// scanEach is eachMatch trying every rule.
func (s *ruleSet) scanEach(path string, skip uint8, fn func(*crule)) {
	p := newProbe(path, false)
	for i := range s.rules[:s.nmatch] {
		if r := &s.rules[i]; r.flags&skip == 0 && !p.reject(r) && s.matchRest(r, p.pathFor(r)) {
			fn(r)
		}
	}
}

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

// prepare builds the token table and the rule sets on the first question.
func (c *compiled) prepare() {
	if !c.prepared.Load() {
		c.prepareSlow()
	}
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

// set returns set i, compiling its rules on first use, and indexed when
// it is large.
func (c *compiled) set(i int32) *ruleSet {
	s := c.coldSet(i)
	if s.big {
		s.index()
	}
	return s
}

// coldSet returns set i, compiling its rules on first use; a large set
// may not be indexed yet (see coldScans).
func (c *compiled) coldSet(i int32) *ruleSet {
	k := i
	if i == starSet {
		k = c.starIdx
	}
	s := &c.sets[k]
	if !s.ready.Load() {
		c.compileOnce(s, i)
	}
	return s
}

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
	s.first = c.dialect.firstMatch()
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

// mayEscape reports whether Google's escaping may change rule value v: it
// holds a '%' or, in a body that has some, a byte of 0x80 or above.
func (c *compiled) mayEscape(v string) bool {
	return c.escape != 0 && (strings.IndexByte(v, '%') >= 0 || c.escape == 2 && hasHighByte(v))
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

// sortPrecedence sorts rules into longest-match order: by insertion when
// they are few. (The order is total: two rules of one line have different
// lengths, so any sort gives the same result.)
func sortPrecedence(rs []crule) {
	if len(rs) > 12 && len(rs) <= hotMax && sortByKeys(rs) {
		return
	}
	if len(rs) > 12 {
		slices.SortFunc(rs, precedenceCmp)
		return
	}
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

// precedenceCmp compares rules in longest-match order (see better).
func precedenceCmp(a, b crule) int {
	switch {
	case better(&a, &b):
		return -1
	case better(&b, &a):
		return 1
	}
	return 0
}

// sortByKeys sorts up to hotMax rules into longest-match order by sorting
// one integer a rule: the complement of its length, then whether it is a
// disallow, then its line, then its position (so the rules are moved once,
// not at every step). It reports false, sorting nothing, when a length or
// a line is too large for its field.
func sortByKeys(rs []crule) bool {
	const lenBits, lineBits, posBits = 20, 31, 8
	const done = 1<<64 - 1 // no rule's key: keys leave their top four bits zero
	var keys [hotMax]uint64
	for i := range rs {
		r := &rs[i]
		if r.n >= 1<<lenBits || r.line < 0 {
			return false
		}
		k := uint64(1<<lenBits-1-r.n)<<(1+lineBits+posBits) | uint64(r.line)<<posBits | uint64(i)
		if !r.allow() {
			k |= 1 << (lineBits + posBits)
		}
		keys[i] = k
	}
	ks := keys[:len(rs)]
	slices.Sort(ks)
	// Rule ks[j]&posMask goes to j: each cycle of that permutation is
	// followed once, one rule held aside, and its places marked done (a
	// key past every position).
	const posMask = 1<<posBits - 1
	for j := range ks {
		if ks[j] == done {
			continue
		}
		held := rs[j]
		k := j
		for {
			src := int(ks[k] & posMask)
			ks[k] = done
			if src == j {
				rs[k] = held
				break
			}
			rs[k] = rs[src]
			k = src
		}
	}
	return true
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

// tokHash mixes a token's fingerprints and length.
func tokHash(f0, f1 uint64, n int) uint64 {
	h := (f0*0x9E3779B97F4A7C15 ^ f1*0xC2B2AE3D27D4EB4F ^ uint64(n)) * 0x165667B19E3779F9
	return h ^ h>>29
}

// findToken returns the index of tok in c.toks, ignoring ASCII case, or -1.
// It does not allocate.
func (c *compiled) findToken(tok string) int32 {
	if c.lens&(1<<(len(tok)%64)) == 0 {
		return -1 // no token has its length
	}
	if c.slots == nil {
		// Few tokens: compare lengths first, fingerprints only when one
		// has the length asked for.
		var f0, f1 uint64
		folded := false
		for i := range c.fast {
			e := &c.fast[i]
			if int(e.n) != len(tok) {
				continue
			}
			if !folded {
				f0, f1 = foldWords(tok)
				folded = true
			}
			// sameToken, written out: the length is known equal.
			if e.fp0 == f0 && e.fp1 == f1 && (len(tok) <= 16 || equalFoldASCII(c.toks[i].tok, tok)) {
				return int32(i)
			}
		}
		return -1
	}
	f0, f1 := foldWords(tok)
	mask := uint64(len(c.slots) - 1)
	for h := tokHash(f0, f1, len(tok)) & mask; ; h = (h + 1) & mask {
		i := c.slots[h]
		if i < 0 {
			return -1
		}
		if c.sameToken(i, tok, f0, f1) {
			return i
		}
	}
}

// sameToken reports whether token i is tok (with fingerprints f0, f1).
func (c *compiled) sameToken(i int32, tok string, f0, f1 uint64) bool {
	e := &c.fast[i]
	return e.fp0 == f0 && e.fp1 == f1 && int(e.n) == len(tok) && (len(tok) <= 16 || equalFoldASCII(c.toks[i].tok, tok))
}

// isGlobalAgent reports whether a user-agent value names every crawler:
// '*' alone or followed by white space (Google's reading).
func isGlobalAgent(v string) bool {
	return len(v) > 0 && v[0] == '*' && (len(v) == 1 || isSpace(v[1]))
}
