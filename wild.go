package robotstxt

import (
	"strings"
	"sync"
	"sync/atomic"
)

// wildIndex finds the wildcard rules of a large set that match a path in
// one pass over the path, whatever the number of rules.
//
// A wildcard pattern is a literal prefix (matched through the probe, as
// for every rule) then literal segments separated by '*'s, the last one
// tied to the end of the path when the pattern ends with '$' and not with
// '*' (its tail). Every distinct segment of the set's rules is a word of an
// Aho-Corasick automaton: one pass over the path lists where each word
// ends. A rule keyed by a word that does not occur is never looked at; one
// that is looked at is decided by the same leftmost-first walk as
// globMatch, each step a binary search among its segment's ends instead of
// a search through the path. Each rule is keyed by its tail if it has one
// (only the words ending the path are tried), else by its longest segment.
type wildIndex struct {
	// The automaton. Nodes are numbered breadth first, so the children
	// of node v are the nodes first[v] to first[v+1]-1, in the order of
	// their labels; node 0 is the root.
	first []int32
	label []byte  // per node: the byte leading to it from its parent
	fail  []int32 // per node: the node of its longest proper suffix in the trie
	out   []int32 // per node: the word of its longest suffix that is a word (itself included), or -1
	root  [256]int32
	// The full transitions of the first nodes (breadth first: the
	// shallowest), by byte class: dense[v*nclass+class[c]] for v < ndense.
	class  [256]uint8
	nclass int32
	ndense int32
	dense  []int32

	// Per word: where it is, as an offset into the set's body, or with
	// wordExtra set into its arena (the patterns hold every word).
	wordAt   []uint32
	wordNode []int32 // per word: its node (while building)
	wordLen  []int32
	wordNext []int32 // per word: the word of its longest proper suffix that is one, or -1

	// The rules, in precedence order: rule k is s.rules[rules[k]], its
	// segments (words) are segs[start[k]:start[k+1]] (segs[k] when start
	// is nil), and tail[k] says that its last segment must end the path.
	rules []int32
	rule0 int32 // when rules is nil: rule k is s.rules[rule0+k]
	segs  []int32
	start []int32
	tail  []bool

	// The rules keyed by each word, in precedence order: byTail[ktail[w]:
	// ktail[w+1]] are those whose tail is word w, byAny[kany[w]:kany[w+1]]
	// those keyed by their longest segment.
	ktail, byTail []int32
	kany, byAny   []int32

	// A question's scratch: one kept here (which a collection does not
	// empty), others pooled while it is taken.
	spare   atomic.Pointer[wildScratch]
	scratch sync.Pool
}

func (w *wildIndex) getScratch() *wildScratch {
	if sc := w.spare.Swap(nil); sc != nil {
		return sc
	}
	return w.scratch.Get().(*wildScratch)
}

func (w *wildIndex) putScratch(sc *wildScratch) {
	if !w.spare.CompareAndSwap(nil, sc) {
		w.scratch.Put(sc)
	}
}

// wildScratch is what a question keeps while it matches: where each word
// first ends in the path.
type wildScratch struct {
	first []int32 // per word: the end of its first occurrence, 0 when none
	seen  []int32 // the words that occur
	final int32   // the automaton's node at the end of the path
}

// rule returns the position in s.rules of indexed rule k.
func (w *wildIndex) rule(k int) int32 {
	if w.rules == nil {
		return w.rule0 + int32(k)
	}
	return w.rules[k]
}

// segsOf returns the segments (words) of indexed rule k.
func (w *wildIndex) segsOf(k int) []int32 {
	if w.start == nil {
		return w.segs[k : k+1]
	}
	return w.segs[w.start[k]:w.start[k+1]]
}

// wordExtra marks a word's offset as one into the set's arena.
const wordExtra = 1 << 31

// word returns word wd's text.
func (w *wildIndex) word(s *ruleSet, wd int32) string {
	at, n := w.wordAt[wd], uint32(w.wordLen[wd])
	if at&wordExtra != 0 {
		return s.extra[at&^wordExtra : at&^wordExtra+n]
	}
	return s.body[at : at+n]
}

// keyed returns the rules of a key table keyed by word wd.
func keyed(bounds, rules []int32, wd int32) []int32 {
	if bounds == nil {
		return nil
	}
	return rules[bounds[wd]:bounds[wd+1]]
}

// child returns v's child by byte c, or -1.
func (w *wildIndex) child(v int32, c byte) int32 {
	lo, hi := w.first[v], w.first[v+1]
	if hi-lo > 8 {
		for lo < hi {
			m := int32(uint32(lo+hi) >> 1)
			if w.label[m] < c {
				lo = m + 1
			} else {
				hi = m
			}
		}
		if lo < w.first[v+1] && w.label[lo] == c {
			return lo
		}
		return -1
	}
	for ; lo < hi; lo++ {
		if w.label[lo] == c {
			return lo
		}
	}
	return -1
}

// step is the automaton's move from node v by byte c.
func (w *wildIndex) step(v int32, c byte) int32 {
	for v != 0 {
		if v < w.ndense {
			return w.dense[v*w.nclass+int32(w.class[c])]
		}
		if u := w.child(v, c); u >= 0 {
			return u
		}
		v = w.fail[v]
	}
	return w.root[c]
}

// scan runs the automaton over path, noting in sc where each word first
// ends. A word noted once has its suffixes noted too (they ended there
// with it), so each byte stops at the first noted word: the pass costs the
// path's length plus the words that occur.
func (w *wildIndex) scan(path string, sc *wildScratch) {
	for _, wd := range sc.seen {
		sc.first[wd] = 0
	}
	sc.seen = sc.seen[:0]
	v := int32(0)
	for j := 0; j < len(path); j++ {
		v = w.step(v, path[j])
		for wd := w.out[v]; wd >= 0 && sc.first[wd] == 0; wd = w.wordNext[wd] {
			sc.first[wd] = int32(j + 1)
			sc.seen = append(sc.seen, wd)
		}
	}
	sc.final = v
}

// matches reports whether rule k, whose prefix the path has, matches path,
// after scan. Rules keyed by their tail are only asked about when the tail
// ends the path. It walks the segments as globMatch does, leftmost first,
// jumping to a word's first end when that is far enough.
func (w *wildIndex) matches(s *ruleSet, k int, path string, sc *wildScratch) bool {
	r := &s.rules[w.rule(k)]
	segs := w.segsOf(k)
	for _, wd := range segs {
		if sc.first[wd] == 0 {
			return false
		}
	}
	pos := int(r.lit)
	for i, wd := range segs {
		n := int(w.wordLen[wd])
		if i == len(segs)-1 && w.tail[k] {
			return len(path)-n >= pos
		}
		if e := int(sc.first[wd]); e-n >= pos {
			pos = e
			continue
		}
		j := strings.Index(path[pos:], w.word(s, wd))
		if j < 0 {
			return false
		}
		pos += j + n
	}
	return true
}

// prefixed reports whether path starts with the literal prefix of rule r.
func (s *ruleSet) prefixed(r *crule, pw uint64, path string) bool {
	if pw&wordMask[r.wlen] != r.word || len(path) < int(r.lit) {
		return false
	}
	return r.lit <= uint32(r.wlen) || path[r.wlen:r.lit] == s.base(r)[r.off+uint32(r.wlen):r.off+r.lit]
}

// best returns the best of best and the indexed rules that match path (cut
// at its end) and have no flag in skip, and how many rules it examined
// (looked at beyond their key).
func (w *wildIndex) best(s *ruleSet, path string, best *crule, skip uint8) (*crule, int) {
	if best != nil && !s.before(&s.rules[w.rule(0)], best) {
		return best, 0 // no indexed rule can win
	}
	sc := w.getScratch()
	w.scan(path, sc)
	pw := word8(path)
	examined := 0
	try := func(list []int32) {
		for _, k := range list {
			r := &s.rules[w.rule(int(k))]
			if best != nil && !s.before(r, best) {
				return // the rest of the list is behind r
			}
			examined++
			if s.prefixed(r, pw, path) && w.matches(s, int(k), path, sc) && r.flags&skip == 0 {
				best = r
				return
			}
		}
	}
	// Rules keyed by their tail: only words that end the path.
	for wd := w.out[sc.final]; wd >= 0; wd = w.wordNext[wd] {
		try(keyed(w.ktail, w.byTail, wd))
	}
	for _, wd := range sc.seen {
		try(keyed(w.kany, w.byAny, wd))
	}
	w.putScratch(sc)
	return best, examined
}

// each calls fn for every indexed rule that matches path (cut at its end)
// and has no flag in skip.
func (w *wildIndex) each(s *ruleSet, path string, skip uint8, fn func(*crule)) {
	sc := w.getScratch()
	w.scan(path, sc)
	pw := word8(path)
	try := func(list []int32) {
		for _, k := range list {
			r := &s.rules[w.rule(int(k))]
			if r.flags&skip == 0 && s.prefixed(r, pw, path) && w.matches(s, int(k), path, sc) {
				fn(r)
			}
		}
	}
	for wd := w.out[sc.final]; wd >= 0; wd = w.wordNext[wd] {
		try(keyed(w.ktail, w.byTail, wd))
	}
	for _, wd := range sc.seen {
		try(keyed(w.kany, w.byAny, wd))
	}
	w.putScratch(sc)
}

// footprint returns the bytes the index keeps (its arrays, and one
// question's scratch), not counting the patterns it points into.
func (w *wildIndex) footprint() int {
	n := 4*(len(w.first)+len(w.fail)+len(w.out)+len(w.dense)) + len(w.label) + len(w.root)*4 + len(w.class)
	n += 4 * (len(w.wordAt) + len(w.wordLen) + len(w.wordNext))
	n += 4*(len(w.rules)+len(w.segs)+len(w.start)) + len(w.tail)
	n += 4 * (len(w.ktail) + len(w.byTail) + len(w.kany) + len(w.byAny))
	n += 4 * len(w.wordAt) // a scratch
	return n
}
