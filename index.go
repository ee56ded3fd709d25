package robotstxt

import (
	"math/bits"
)

// ruleIndex lets a large rule set answer without scanning every rule. It is
// built when the set is compiled.
//
// Literal patterns (no '*', no final '$') match a path exactly when they are
// a prefix of it, so the best of them is the longest pattern that prefixes
// the path. With the distinct literal patterns sorted, let p be the last one
// not greater than the path: every pattern that prefixes the path sorts
// between itself and the path, hence also prefixes p. So the answer is the
// longest prefix of p, in the list, that is no longer than the common prefix
// of p and the path: found by following parent links (each pattern's longest
// proper prefix in the list) from p. Anchored literals ("/a$") need an exact
// match: a binary search. Wildcard rules are tried in precedence order, only
// while they can still beat what was found.
//
// Precedence order is the set's (ruleSet.before): longest match, or for the
// draft's dialects file order. In file order the longest literal that
// prefixes the path need not come first, so each literal also notes the
// first rule along its chain of prefixes (chain).
type ruleIndex struct {
	lits  []int32    // positions in rules: distinct literal patterns (the best rule of each), sorted
	ents  []litEntry // per lits entry: what finding it reads (see litEntry)
	chain []int32    // first-match sets: per lits entry, the position in rules of the best rule of it and its prefixes
	exact []int32    // positions in rules: distinct anchored literal patterns, sorted
	// Every rule of each literal and anchored pattern, the best first:
	// those of lits[k] are litAll[litRun[k]:litRun[k+1]], as for exact
	// (nil when no pattern repeats: lits[k] alone). Explain lists them
	// all; Yandex passes over Google's index.htm rules.
	litAll, litRun     []int32
	exactAll, exactRun []int32
	wild               []int32 // positions in rules: wildcard rules, in precedence order
	// The wildcard rules again, bucketed by the byte after the leading '/'
	// as ruleSet buckets small sets: wild[wstart[b]:wstart[b+1]] are those
	// starting "/b"; wgeneric those that match whatever that byte is.
	wstart   []int32
	wbucket  []int32
	wgeneric []int32
	// With many wildcard rules that have a segment after their first
	// '*', those rules are found through aut instead, and left out of
	// the buckets.
	aut *wildIndex
}

// litEntry is what lastLit reads of a literal pattern, together: the
// binary search reads the words, and the walk to the longest prefix of the
// path its length and parent, most often without reading the pattern or
// its rule.
type litEntry struct {
	w0, w1, w2 uint64 // the pattern's first 24 bytes, big-endian, zero-padded
	lit        uint32 // the pattern's length
	parent     int32  // the lits position of its longest proper prefix, or -1
}

// evalIndexed is eval for a large set. Rules with a flag in skip are passed
// over (only anchored literals can have one: Google's index.htm rules).
func (s *ruleSet) evalIndexed(path string, skip uint8) *crule {
	ix := s.idx
	var best *crule
	// The literal patterns are found in the uncut path (see probe).
	p := newProbe(path, s.manyWild)
	if k := ix.lastLit(s, path); k >= 0 {
		if ix.chain != nil {
			best = &s.rules[ix.chain[k]]
		} else {
			best = &s.rules[ix.lits[k]]
		}
	}
	// The path is cut (for anchored rules) only when there are some.
	if len(ix.exact) > 0 {
		if r := ix.exactRule(s, p.clean(), skip); r != nil && (best == nil || s.before(r, best)) {
			best = r
		}
	}
	// Wildcard rules that can still win, in precedence order: the path's
	// bucket merged with the generic ones.
	var bk []int32
	if len(ix.wbucket) > 0 {
		var b byte
		if len(path) > 1 {
			b = path[1]
		}
		bk = ix.wbucket[ix.wstart[b]:ix.wstart[int(b)+1]]
	}
	gen := ix.wgeneric
	for len(bk) > 0 || len(gen) > 0 {
		var id int32
		if len(gen) == 0 || len(bk) > 0 && bk[0] < gen[0] {
			id, bk = bk[0], bk[1:]
		} else {
			id, gen = gen[0], gen[1:]
		}
		r := &s.rules[ix.wild[id]]
		if best != nil && !s.before(r, best) {
			break
		}
		if !p.reject(r) && s.matchRest(r, p.pathFor(r)) && r.flags&skip == 0 {
			best = r
			break
		}
	}
	if ix.aut != nil {
		best, _ = ix.aut.best(s, p.clean(), best, skip)
	}
	return best
}

// lastLit returns the longest literal pattern (a position in lits) that
// prefixes path, or -1; its parents are the others.
func (ix *ruleIndex) lastLit(s *ruleSet, path string) int {
	lits := ix.lits
	if len(lits) == 0 {
		return -1
	}
	// k: the last literal pattern <= path. Patterns whose first 24 bytes
	// sort below the path's are below it; above, above; only the run of
	// equal words (patterns that share 24 bytes with the path) needs
	// comparing as strings. (Keys hold no NUL byte, so a key's padding
	// sorts as its end does.)
	pw0, pw1, pw2 := beWord8(path), beWord8(path[min(8, len(path)):]), beWord8(path[min(16, len(path)):])
	e := ix.ents
	lo, hi := 0, len(e)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if x := &e[m]; x.w0 < pw0 || x.w0 == pw0 && (x.w1 < pw1 || x.w1 == pw1 && x.w2 < pw2) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	// Most often no pattern has the path's words: then lo-1 is the last
	// one below it, and the run is not searched (nor its strings read).
	if lo < len(e) && e[lo].w0 == pw0 && e[lo].w1 == pw1 && e[lo].w2 == pw2 {
		for hi = len(e); lo < hi; {
			// A word above the path's settles it without the string.
			m := int(uint(lo+hi) >> 1)
			if x := &e[m]; x.w0 != pw0 || x.w1 != pw1 || x.w2 != pw2 || s.key(&s.rules[lits[m]]) > path {
				hi = m
			} else {
				lo = m + 1
			}
		}
	}
	k := lo - 1
	if k < 0 {
		return -1
	}
	// The common prefix of pattern k and the path, from the words when
	// they differ in their first 24 bytes (a byte of padding differs only
	// past the end of the pattern or of the path).
	common := 24
	if x := e[k].w0 ^ pw0; x != 0 {
		common = bits.LeadingZeros64(x) / 8
	} else if x := e[k].w1 ^ pw1; x != 0 {
		common = 8 + bits.LeadingZeros64(x)/8
	} else if x := e[k].w2 ^ pw2; x != 0 {
		common = 16 + bits.LeadingZeros64(x)/8
	}
	common = min(common, int(e[k].lit), len(path))
	if common == 24 && e[k].lit > 24 && len(path) > 24 {
		common += commonPrefix(s.key(&s.rules[lits[k]])[24:], path[24:])
	}
	for k >= 0 && int(e[k].lit) > common {
		k = int(e[k].parent)
	}
	return k
}

// exactRule returns the best anchored literal rule whose body is path and
// that has no flag in skip, or nil.
func (ix *ruleIndex) exactRule(s *ruleSet, path string, skip uint8) *crule {
	e := ix.findExact(s, path)
	if e < 0 {
		return nil
	}
	for _, id := range runOf(ix.exact, ix.exactAll, ix.exactRun, e) {
		if r := &s.rules[id]; r.flags&skip == 0 {
			return r
		}
	}
	return nil
}

// runOf returns the rules of distinct pattern k (see ruleIndex.litAll).
func runOf(distinct, all, run []int32, k int) []int32 {
	if run == nil {
		return distinct[k : k+1]
	}
	return all[run[k]:run[k+1]]
}

// findExact returns the anchored literal (a position in exact) whose body
// is path, or -1.
func (ix *ruleIndex) findExact(s *ruleSet, path string) int {
	ex := ix.exact
	lo, hi := 0, len(ex)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.key(&s.rules[ex[m]]) < path {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(ex) && s.key(&s.rules[ex[lo]]) == path {
		return lo
	}
	return -1
}

// each calls fn for every rule of the set that matches path and has no
// flag in skip, in no particular order.
func (ix *ruleIndex) each(s *ruleSet, path string, skip uint8, fn func(*crule)) {
	p := newProbe(path, false)
	all := func(ids []int32) {
		for _, id := range ids {
			if r := &s.rules[id]; r.flags&skip == 0 {
				fn(r)
			}
		}
	}
	for k := ix.lastLit(s, path); k >= 0; k = int(ix.ents[k].parent) {
		all(runOf(ix.lits, ix.litAll, ix.litRun, k))
	}
	if len(ix.exact) > 0 {
		if e := ix.findExact(s, p.clean()); e >= 0 {
			all(runOf(ix.exact, ix.exactAll, ix.exactRun, e))
		}
	}
	try := func(ids []int32) {
		for _, k := range ids {
			if r := &s.rules[ix.wild[k]]; r.flags&skip == 0 && !p.reject(r) && s.matchRest(r, p.pathFor(r)) {
				fn(r)
			}
		}
	}
	var b byte
	if len(path) > 1 {
		b = path[1]
	}
	try(ix.wbucket[ix.wstart[b]:ix.wstart[int(b)+1]])
	try(ix.wgeneric)
	if ix.aut != nil {
		ix.aut.each(s, p.clean(), skip, fn)
	}
}
