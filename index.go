package robotstxt

import (
	"slices"
	"strings"
)

// ruleIndex lets a large rule set answer without scanning every rule. It is
// built on the set's first question.
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
type ruleIndex struct {
	lits   []int32 // distinct literal patterns (the best rule of each), sorted
	parent []int32 // per lits entry: the lits position of its longest proper prefix, or -1
	exact  []int32 // distinct anchored literal patterns, sorted
	wild   []int32 // wildcard rules, in precedence order
}

func (c *compiled) index(s *ruleSet) *ruleIndex {
	l := s.lazy
	l.once.Do(func() { l.idx = c.buildIndex(s) })
	return l.idx
}

func (c *compiled) buildIndex(s *ruleSet) *ruleIndex {
	ix := new(ruleIndex)
	s.ruleIDs(func(i int32) {
		switch c.rules[i].flags & (ruleWild | ruleAnchored) {
		case 0:
			ix.lits = append(ix.lits, i)
		case ruleAnchored:
			ix.exact = append(ix.exact, i)
		default:
			ix.wild = append(ix.wild, i)
		}
	})
	// Literal patterns sort by the pattern; anchored ones by their body
	// (the pattern without its '$'), which is what a path is compared with.
	key := func(id int32) string {
		r := &c.rules[id]
		return c.base[r.off : r.off+r.lit]
	}
	dedupe := func(ids []int32) []int32 {
		slices.SortFunc(ids, func(a, b int32) int {
			if d := strings.Compare(key(a), key(b)); d != 0 {
				return d
			}
			if better(&c.rules[a], &c.rules[b]) {
				return -1
			}
			if better(&c.rules[b], &c.rules[a]) {
				return 1
			}
			return 0
		})
		// Keep the best rule of each pattern: the first of its run.
		return slices.Clip(slices.CompactFunc(ids, func(a, b int32) bool { return key(a) == key(b) }))
	}
	ix.lits = dedupe(ix.lits)
	ix.exact = dedupe(ix.exact)
	slices.SortFunc(ix.wild, func(a, b int32) int {
		if better(&c.rules[a], &c.rules[b]) {
			return -1
		}
		if better(&c.rules[b], &c.rules[a]) {
			return 1
		}
		return 0
	})

	ix.parent = make([]int32, len(ix.lits))
	var stack []int32 // positions in lits: a chain of prefixes
	for k, id := range ix.lits {
		p := c.pat(&c.rules[id])
		for len(stack) > 0 && !strings.HasPrefix(p, c.pat(&c.rules[ix.lits[stack[len(stack)-1]]])) {
			stack = stack[:len(stack)-1]
		}
		ix.parent[k] = -1
		if len(stack) > 0 {
			ix.parent[k] = stack[len(stack)-1]
		}
		stack = append(stack, int32(k))
	}
	return ix
}

// evalIndexed is eval for a large set.
func (c *compiled) evalIndexed(s *ruleSet, path string, pc *pathClasses) *crule {
	ix := c.index(s)
	var best *crule
	if lits := ix.lits; len(lits) > 0 {
		// k: the last literal pattern <= path.
		lo, hi := 0, len(lits)
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if c.pat(&c.rules[lits[m]]) <= path {
				lo = m + 1
			} else {
				hi = m
			}
		}
		if k := lo - 1; k >= 0 {
			common := commonPrefix(c.pat(&c.rules[lits[k]]), path)
			for k >= 0 && int(c.rules[lits[k]].n) > common {
				k = int(ix.parent[k])
			}
			if k >= 0 {
				best = &c.rules[lits[k]]
			}
		}
	}
	if ex := ix.exact; len(ex) > 0 {
		// The anchored body is the pattern without its '$'.
		lo, hi := 0, len(ex)
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			r := &c.rules[ex[m]]
			if c.base[r.off:r.off+r.lit] < path {
				lo = m + 1
			} else {
				hi = m
			}
		}
		if lo < len(ex) {
			if r := &c.rules[ex[lo]]; c.base[r.off:r.off+r.lit] == path && (best == nil || better(r, best)) {
				best = r
			}
		}
	}
	for _, id := range ix.wild {
		r := &c.rules[id]
		if best != nil && !better(r, best) {
			break
		}
		if c.match(r, path, pc) {
			best = r
			break
		}
	}
	return best
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
