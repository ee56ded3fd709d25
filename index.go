package robotstxt

import (
	"math/bits"
	"slices"
	"strings"
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

func (s *ruleSet) buildIndex() *ruleIndex {
	ix := new(ruleIndex)
	for i := range s.rules[:s.nmatch] {
		switch s.rules[i].flags & (ruleWild | ruleAnchored) {
		case 0:
			ix.lits = append(ix.lits, int32(i))
		case ruleAnchored:
			ix.exact = append(ix.exact, int32(i))
		default:
			ix.wild = append(ix.wild, int32(i))
		}
	}
	// Literal patterns sort by the pattern; anchored ones by their body
	// (the pattern without its '$'), which is what a path is compared with.
	key := func(id int32) string { return s.key(&s.rules[id]) }
	order := func(a, b int32) int {
		if s.before(&s.rules[a], &s.rules[b]) {
			return -1
		}
		if s.before(&s.rules[b], &s.rules[a]) {
			return 1
		}
		return 0
	}
	dedupe := func(ids []int32, keepWords bool) (distinct, all, run []int32, ents []litEntry) {
		// Sort on the keys' first 24 bytes as integers, then (for keys
		// sharing them) on the whole keys, then best rule first; keep
		// the first rule of each key, and all of them in all, and
		// (keepWords) the entries of the distinct keys.
		items := make([]keyItem, len(ids))
		for i, id := range ids {
			items[i] = newKeyItem(key(id), id)
		}
		// Past their first 24 bytes (what the words hold).
		tail := func(it *keyItem) string { k := key(it.id); return k[min(24, len(k)):] }
		sortKeyItems(items, func(a, b keyItem) int {
			if a.n > 24 || b.n > 24 {
				if d := strings.Compare(tail(&a), tail(&b)); d != 0 {
					return d
				}
			}
			if a.n != b.n {
				return cmpUint64(uint64(a.n), uint64(b.n)) // a prefix first
			}
			return order(a.id, b.id)
		})
		// Keys differ when their words or lengths do, or else, past 24
		// bytes, when their strings do.
		differs := func(i int) bool {
			a, b := &items[i-1], &items[i]
			return a.w != b.w || a.n != b.n || a.n > 24 && tail(a) != tail(b)
		}
		nd := min(len(items), 1)
		for i := 1; i < len(items); i++ {
			if differs(i) {
				nd++
			}
		}
		for i := range items {
			ids[i] = items[i].id
		}
		if keepWords {
			ents = make([]litEntry, nd)
		}
		if nd == len(ids) {
			// No key repeats: all is distinct.
			for i := range ents {
				ents[i] = items[i].entry()
			}
			return ids, nil, nil, ents
		}
		distinct, run = make([]int32, 0, nd), make([]int32, 0, nd+1)
		for i := range items {
			if i == 0 || differs(i) {
				if keepWords {
					ents[len(distinct)] = items[i].entry()
				}
				run = append(run, int32(i))
				distinct = append(distinct, ids[i])
			}
		}
		return distinct, ids, append(run, int32(len(ids))), ents
	}
	ix.lits, ix.litAll, ix.litRun, ix.ents = dedupe(ix.lits, true)
	ix.exact, ix.exactAll, ix.exactRun, _ = dedupe(ix.exact, false)
	slices.SortFunc(ix.wild, order)

	var segged []int32
	inAut := make([]bool, len(ix.wild)) // per wild entry: found through aut
	for k, id := range ix.wild {
		if segmented(s.pat(&s.rules[id]), &s.rules[id]) {
			segged = append(segged, id)
			inAut[k] = true
		}
	}
	// (The automaton notes where its words are in 31 bits.)
	if len(segged) >= wildMin && len(s.body) < wordExtra && len(s.extra) < wordExtra {
		ix.aut = s.buildWild(segged)
	} else {
		clear(inAut)
	}
	ix.bucketWild(s, inAut)
	var stack []int32 // positions in lits: a chain of prefixes
	for k := range ix.lits {
		for len(stack) > 0 && !ix.prefixes(s, int(stack[len(stack)-1]), k) {
			stack = stack[:len(stack)-1]
		}
		ix.ents[k].parent = -1
		if len(stack) > 0 {
			ix.ents[k].parent = stack[len(stack)-1]
		}
		stack = append(stack, int32(k))
	}
	if s.first {
		// A prefix sorts before what it prefixes: its chain entry is set.
		ix.chain = make([]int32, len(ix.lits))
		for k, id := range ix.lits {
			ix.chain[k] = id
			if p := ix.ents[k].parent; p >= 0 && s.before(&s.rules[ix.chain[p]], &s.rules[id]) {
				ix.chain[k] = ix.chain[p]
			}
		}
	}
	return ix
}

// prefixes reports whether literal pattern j (a position in lits) is a
// prefix of literal pattern k: from their words when j is no longer than
// them, else from their strings.
func (ix *ruleIndex) prefixes(s *ruleSet, j, k int) bool {
	a, b := &ix.ents[j], &ix.ents[k]
	if a.lit > b.lit {
		return false
	}
	if a.lit > 24 {
		return strings.HasPrefix(s.key(&s.rules[ix.lits[k]]), s.key(&s.rules[ix.lits[j]]))
	}
	// a's words past its length are zero: compare b's under a mask of
	// a's bytes.
	n := int(a.lit)
	return a.w0 == b.w0&beMask(n) && a.w1 == b.w1&beMask(n-8) && a.w2 == b.w2&beMask(n-16)
}

// key is the literal part of a rule's pattern: all of a literal pattern, the
// body of an anchored one.
func (s *ruleSet) key(r *crule) string { return s.base(r)[r.off : r.off+r.lit] }

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

// bucketWild buckets the wildcard rules (positions in ix.wild, which is in
// precedence order), but those found through the automaton (inAut).
func (ix *ruleIndex) bucketWild(s *ruleSet, inAut []bool) {
	var count [257]int32
	bucketOf := func(r *crule) int {
		if r.lit >= 2 && s.base(r)[r.off] == '/' {
			return int(s.base(r)[r.off+1])
		}
		return -1
	}
	for k, id := range ix.wild {
		if inAut[k] {
			continue
		}
		if b := bucketOf(&s.rules[id]); b >= 0 {
			count[b]++
		} else {
			ix.wgeneric = append(ix.wgeneric, int32(k))
		}
	}
	ix.wstart = make([]int32, 257)
	var n int32
	for b := 0; b < 256; b++ {
		ix.wstart[b] = n
		n += count[b]
	}
	ix.wstart[256] = n
	ix.wbucket = make([]int32, n)
	var fill [256]int32
	for k, id := range ix.wild {
		if inAut[k] {
			continue
		}
		if b := bucketOf(&s.rules[id]); b >= 0 {
			ix.wbucket[ix.wstart[b]+fill[b]] = int32(k)
			fill[b]++
		}
	}
}

// keyItem is a pattern to sort: the first 24 bytes of its key as three
// big-endian words (zero-padded: keys hold no NUL byte), its length and
// its position in the set's rules.
type keyItem struct {
	w  [3]uint64
	id int32
	n  uint32
}

// newKeyItem returns the item of key k, of rule id.
func newKeyItem(k string, id int32) keyItem {
	it := keyItem{id: id, n: uint32(len(k))}
	it.w[0] = beWord8(k)
	if len(k) > 8 {
		it.w[1] = beWord8(k[8:])
		if len(k) > 16 {
			it.w[2] = beWord8(k[16:])
		}
	}
	return it
}

// entry returns the index entry of the item's key (its parent unset).
func (it *keyItem) entry() litEntry {
	return litEntry{w0: it.w[0], w1: it.w[1], w2: it.w[2], lit: it.n}
}

// sortKeyItems sorts items by their words, then the items whose words are
// equal by tie. Many items are sorted by a radix sort on the words' bytes,
// most significant first (passing over the bytes they all share: most keys
// start with '/'), down to runs small enough for a comparison sort.
func sortKeyItems(items []keyItem, tie func(a, b keyItem) int) {
	if len(items) < keyRadixMin {
		sortKeysCmp(items, tie)
		return
	}
	sortKeysRadix(items, make([]keyItem, len(items)), 0, tie)
}

// keyRadixMin is the run below which sortKeyItems compares.
const keyRadixMin = 24

// cmpKeyItems compares items by their words, then by tie.
func cmpKeyItems(a, b *keyItem, tie func(a, b keyItem) int) int {
	switch {
	case a.w[0] != b.w[0]:
		return cmpUint64(a.w[0], b.w[0])
	case a.w[1] != b.w[1]:
		return cmpUint64(a.w[1], b.w[1])
	case a.w[2] != b.w[2]:
		return cmpUint64(a.w[2], b.w[2])
	}
	return tie(*a, *b)
}

// sortKeysCmp sorts items by their words, then by tie: by insertion when
// they are few.
func sortKeysCmp(items []keyItem, tie func(a, b keyItem) int) {
	if len(items) > keyRadixMin {
		slices.SortFunc(items, func(a, b keyItem) int { return cmpKeyItems(&a, &b, tie) })
		return
	}
	for i := 1; i < len(items); i++ {
		x := items[i]
		j := i
		// cmpKeyItems(&x, y, tie) < 0, written out: calling it here
		// costs 2% more instructions over a Parse + Compile pass.
		for ; j > 0; j-- {
			y := &items[j-1]
			if x.w[0] != y.w[0] {
				if x.w[0] > y.w[0] {
					break
				}
			} else if x.w[1] != y.w[1] {
				if x.w[1] > y.w[1] {
					break
				}
			} else if x.w[2] != y.w[2] {
				if x.w[2] > y.w[2] {
					break
				}
			} else if tie(x, *y) >= 0 {
				break
			}
			items[j] = *y
		}
		items[j] = x
	}
}

// sortKeysRadix sorts items, which agree on their words' first d bytes
// (or more), by their first byte that not all of them share, then each run
// of equal bytes the same way; tmp is scratch as long as items. The loops
// over byte values run over those the items hold only.
func sortKeysRadix(items, tmp []keyItem, d int, tie func(a, b keyItem) int) {
	if len(items) < keyRadixMin {
		sortKeysCmp(items, tie)
		return
	}
	// Skip the bytes every item shares, found in one pass.
	var x0, x1, x2 uint64
	f := items[0].w
	for i := range items {
		w := &items[i].w
		x0 |= w[0] ^ f[0]
		x1 |= w[1] ^ f[1]
		x2 |= w[2] ^ f[2]
	}
	switch {
	case x0 != 0:
		d = max(d, bits.LeadingZeros64(x0)/8)
	case x1 != 0:
		d = max(d, 8+bits.LeadingZeros64(x1)/8)
	case x2 != 0:
		d = max(d, 16+bits.LeadingZeros64(x2)/8)
	default:
		sortKeysCmp(items, tie) // equal words
		return
	}
	// Byte d of an item is word d/8 shifted.
	wi, shift := d>>3, uint(56-8*(d&7))
	var end [256]int32 // counts, then where each byte's run ends
	lo, hi := byte(0xFF), byte(0)
	if len(items) < 256 {
		for i := range items {
			b := byte(items[i].w[wi] >> shift)
			end[b]++
			lo, hi = min(lo, b), max(hi, b)
		}
	} else {
		// Many items: count them alone, then find the first and last
		// byte held from the counts.
		for i := range items {
			end[byte(items[i].w[wi]>>shift)]++
		}
		for lo = 0; end[lo] == 0; lo++ {
		}
		for hi = 0xFF; end[hi] == 0; hi-- {
		}
	}
	var at int32
	for b := int(lo); b <= int(hi); b++ {
		at += end[b]
		end[b] = at
	}
	// Backwards, each item goes before the last one placed with its
	// byte, so that end[b] ends as where b's run starts.
	for i := len(items) - 1; i >= 0; i-- {
		b := byte(items[i].w[wi] >> shift)
		end[b]--
		tmp[end[b]] = items[i]
	}
	copy(items, tmp)
	for b := int(lo); b <= int(hi); b++ {
		start, stop := end[b], int32(len(items))
		if b < int(hi) {
			stop = end[b+1]
		}
		if stop-start > 1 {
			sortKeysRadix(items[start:stop], tmp[start:stop], d+1, tie)
		}
	}
}
