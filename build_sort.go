package robotstxt

import (
	"math/bits"
	"slices"
)

// Sorting for the builder: a set's rules into longest-match order
// (sortPrecedence, sortByKeys) and an index's patterns by their bytes
// (sortKeyItems).

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
