package robotstxt

import (
	"slices"
	"strings"
)

// Building the automaton of a large set's wildcard rules (wildIndex, read
// in wild.go).

// wildMin is the number of wildcard rules with a literal segment after
// their first '*' from which a large set finds them through a wildIndex
// rather than trying each: below it, searching a few segments over the path
// costs less than one pass of the automaton.
const wildMin = 64

// segmented reports whether wildcard rule r has a literal segment after its
// first '*'.
func segmented(pat string, r *crule) bool {
	body := pat[r.lit:]
	if r.flags&ruleAnchored != 0 {
		body = body[:len(body)-1]
	}
	return strings.Trim(body, "*") != ""
}

// buildWild indexes the wildcard rules ids (positions in s.rules, in
// precedence order) that have a segment.
func (s *ruleSet) buildWild(ids []int32) *wildIndex {
	w := &wildIndex{}
	words := map[string]int32{}
	var list []string
	w.start = make([]int32, 0, len(ids)+1)
	w.rules = make([]int32, 0, len(ids))
	w.tail = make([]bool, 0, len(ids))
	for _, id := range ids {
		r := &s.rules[id]
		w.rules = append(w.rules, id)
		w.start = append(w.start, int32(len(w.segs)))
		pat := s.pat(r)
		end := len(pat)
		if r.flags&ruleAnchored != 0 {
			end--
		}
		w.tail = append(w.tail, r.flags&ruleAnchored != 0 && pat[end-1] != '*')
		for i := int(r.lit); i < end; {
			j := end // the segment ends at the next '*', or at the end
			if k := strings.IndexByte(pat[i:end], '*'); k >= 0 {
				j = i + k
			}
			if j > i {
				seg := pat[i:j]
				wd, ok := words[seg]
				if !ok {
					wd = int32(len(list))
					words[seg] = wd
					list = append(list, seg)
					at := r.off + uint32(i)
					if r.flags&ruleExtra != 0 {
						at |= wordExtra
					}
					w.wordAt = append(w.wordAt, at)
				}
				w.segs = append(w.segs, wd)
			}
			i = j + 1
		}
	}
	w.start = append(w.start, int32(len(w.segs)))
	w.segs = slices.Clip(w.segs)
	w.wordAt = slices.Clip(w.wordAt)
	w.build(list)

	// Keys.
	tailKey := make([]int32, len(w.tail))
	anyKey := make([]int32, len(w.tail))
	for k := range w.tail {
		segs := w.segsOf(k)
		tailKey[k], anyKey[k] = -1, -1
		if w.tail[k] {
			tailKey[k] = segs[len(segs)-1]
			continue
		}
		best := segs[0]
		for _, sg := range segs[1:] {
			if w.wordLen[sg] >= w.wordLen[best] {
				best = sg
			}
		}
		anyKey[k] = best
	}
	w.ktail, w.byTail = keyTable(tailKey, len(list))
	w.kany, w.byAny = keyTable(anyKey, len(list))
	if len(w.segs) == len(w.tail) {
		w.start = nil // one segment a rule: rule k's is segs[k]
	}
	if inRow(w.rules) {
		// Rules in a row: the first says where.
		w.rule0, w.rules = w.rules[0], nil
	}
	nw := len(list)
	w.scratch.New = func() any {
		return &wildScratch{first: make([]int32, nw)}
	}
	return w
}

// inRow reports whether ids (not empty) are a run of consecutive ids in
// ascending order, ids[k] == ids[0]+k. The ends alone do not say so: a large
// set keeps its rules in file order, and the ids come in longest-match order,
// so a run's ends may come first and last with the rest out of order.
func inRow(ids []int32) bool {
	for k, id := range ids {
		if id != ids[0]+int32(k) {
			return false
		}
	}
	return true
}

// keyTable groups the rules k by key[k] (-1: none), keeping their order.
func keyTable(key []int32, words int) (bounds, rules []int32) {
	n := 0
	for _, w := range key {
		if w >= 0 {
			n++
		}
	}
	if n == 0 {
		return nil, nil // no rule is keyed so: keyed(nil, ...) is empty
	}
	bounds = make([]int32, words+1)
	for _, w := range key {
		if w >= 0 {
			bounds[w+1]++
		}
	}
	for i := 1; i <= words; i++ {
		bounds[i] += bounds[i-1]
	}
	rules = make([]int32, n)
	fill := slices.Clone(bounds[:words])
	for k, w := range key {
		if w >= 0 {
			rules[fill[w]] = int32(k)
			fill[w]++
		}
	}
	return bounds, rules
}

// build makes the automaton of the words.
func (w *wildIndex) build(words []string) {
	// A trie built from the sorted words, in depth-first order: each new
	// word shares its common prefix with the one before.
	order := make([]int32, len(words))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(words[a], words[b]) })
	most := 1 // the nodes there can be: the root and a node a byte
	for _, wd := range words {
		most += len(wd)
	}
	var (
		lbl     = append(make([]byte, 0, most), 0)
		child   = append(make([]int32, 0, most), -1) // first child
		sibling = append(make([]int32, 0, most), -1) // next sibling, in label order
		lastCh  = append(make([]int32, 0, most), -1)
		word    = append(make([]int32, 0, most), -1)
	)
	stack := []int32{0} // stack[d]: the node of the previous word's first d bytes
	prev := ""
	for _, id := range order {
		wd := words[id]
		common := commonPrefix(prev, wd)
		stack = stack[:common+1]
		for d := common; d < len(wd); d++ {
			parent := stack[d]
			n := int32(len(lbl))
			lbl = append(lbl, wd[d])
			child, sibling, lastCh, word = append(child, -1), append(sibling, -1), append(lastCh, -1), append(word, -1)
			if lastCh[parent] < 0 {
				child[parent] = n
			} else {
				sibling[lastCh[parent]] = n
			}
			lastCh[parent] = n
			stack = append(stack, n)
		}
		word[stack[len(wd)]] = id
		prev = wd
	}
	// Number the nodes breadth first.
	nn := len(lbl)
	w.first = make([]int32, nn+1)
	w.label = make([]byte, nn)
	w.fail = make([]int32, nn)
	w.out = make([]int32, nn)
	w.wordNode = make([]int32, len(words))
	w.wordLen = make([]int32, len(words))
	for i, wd := range words {
		w.wordLen[i] = int32(len(wd))
	}
	queue := make([]int32, 1, nn) // old numbers, in new order
	next := int32(1)
	for i := 0; i < len(queue); i++ {
		v := queue[i]
		w.first[i] = next
		for c := child[v]; c >= 0; c = sibling[c] {
			w.label[next] = lbl[c]
			if word[c] >= 0 {
				w.wordNode[word[c]] = next
			}
			queue = append(queue, c)
			next++
		}
	}
	w.first[nn] = next
	defer func() {
		w.wordNext = make([]int32, len(words))
		for i, v := range w.wordNode {
			w.wordNext[i] = w.out[w.fail[v]]
		}
		w.wordNode = nil // only building needs it
	}()
	// Failure links and outputs, breadth first.
	newWord := make([]int32, nn)
	for i, old := range queue {
		newWord[i] = word[old]
	}
	w.out[0] = -1
	for c := range w.root {
		w.root[c] = 0
	}
	for u := w.first[0]; u < w.first[1]; u++ {
		w.root[w.label[u]] = u
	}
	for v := int32(0); v < int32(nn); v++ {
		for u := w.first[v]; u < w.first[v+1]; u++ {
			if v != 0 {
				w.fail[u] = w.step(w.fail[v], w.label[u])
			}
			w.out[u] = newWord[u]
			if w.out[u] < 0 {
				w.out[u] = w.out[w.fail[u]]
			}
		}
	}
	w.buildDense()
}

// maxDense bounds the entries of the dense transition table; a table of
// up to denseMin entries is built whatever the automaton's size.
const (
	maxDense = 1 << 16
	denseMin = 1 << 10
)

// buildDense tabulates the moves of the shallowest nodes.
func (w *wildIndex) buildDense() {
	var used [256]bool
	for _, c := range w.label[1:] {
		used[c] = true
	}
	w.nclass = 1 // class 0: the bytes no word holds
	for c := range used {
		if used[c] {
			w.class[c] = uint8(w.nclass)
			w.nclass++
		}
	}
	if w.nclass > 255 {
		return
	}
	// At most maxDense entries, and for a small automaton a few per
	// node: the table is built entry by entry, and the moves of the
	// deeper nodes are found without it.
	nn := int32(len(w.label))
	w.ndense = min(nn, maxDense/w.nclass, max(denseMin, 4*nn)/w.nclass)
	w.dense = make([]int32, w.ndense*w.nclass)
	nc := w.nclass
	for v := int32(0); v < w.ndense; v++ {
		// A node moves as its failure node does (which is shallower,
		// so its row is done), but by the bytes of its children; the
		// root moves to itself by any other byte.
		row := w.dense[v*nc : (v+1)*nc]
		if v != 0 {
			f := w.fail[v]
			copy(row, w.dense[f*nc:(f+1)*nc])
		}
		for u := w.first[v]; u < w.first[v+1]; u++ {
			row[w.class[w.label[u]]] = u
		}
	}
}
