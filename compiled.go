package robotstxt

import (
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// The compiled file: what a reading of the body builds (build.go) and what
// questions read (answer.go): the groups and lines, the token table and
// its lookup, and the rule sets with their compiled rules. The builder and
// the answering code both call down into this file, and it calls nothing of
// theirs.

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

	dialect    Dialect
	mode       reading
	extensions Extensions // the extensions read (ParseOptions.Extensions)
	body       string
	toks       []tokenEntry // the product tokens the file names

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

	// ai is the groups' Content-Usage and Content-Signal lines, and with
	// ExtWebBotAuth their Signature-Agent and Max-Crawl-Rate lines; nil
	// when none.
	ai *aiLines
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

// tokHash mixes a token's fingerprints and length.
func tokHash(f0, f1 uint64, n int) uint64 {
	h := (f0*0x9E3779B97F4A7C15 ^ f1*0xC2B2AE3D27D4EB4F ^ uint64(n)) * 0x165667B19E3779F9
	return h ^ h>>29
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

// key is the literal part of a rule's pattern: all of a literal pattern, the
// body of an anchored one.
func (s *ruleSet) key(r *crule) string { return s.base(r)[r.off : r.off+r.lit] }

// mayEscape reports whether Google's escaping may change rule value v: it
// holds a '%' or, in a body that has some, a byte of 0x80 or above.
func (c *compiled) mayEscape(v string) bool {
	return c.escape != 0 && (strings.IndexByte(v, '%') >= 0 || c.escape == 2 && hasHighByte(v))
}
