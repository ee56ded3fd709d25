package robotstxt

import (
	"slices"
	"strings"
)

// Building a large set's index (ruleIndex, read in index.go), on the
// set's first questions (see coldScans).

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
