package robotstxt

import (
	"strings"
	"unsafe"
)

// Building a set's hot block: its layout is described in hot.go, which
// reads it.

// bucketMin is the number of rules from which a small set's hot block
// buckets them.
const bucketMin = 8

// maxBucketCopies bounds the rules a set's buckets hold, as a multiple of
// its rules.
const maxBucketCopies = 4

// hotInlineMax is the longest pattern whose bytes a hot block keeps: a set
// with a longer one that matching reads is scanned instead.
const hotInlineMax = 256

// buildHot lays out the hot block of the set's matchable rules rs, which
// are in precedence order, or returns nil when the set cannot have one.
// The block is allocated with extra words after it (the block's header
// says where it ends), and the whole of it is returned.
func (s *ruleSet) buildHot(rs []crule, extra int) []uint64 {
	if len(rs) > hotMax || s.first {
		return nil
	}
	// The pattern bytes to keep, and the slots: with enough rules, each
	// bucket's rules (its own merged with the generic ones), else every
	// rule once.
	patBytes := 0
	for i := range rs {
		r := &rs[i]
		if r.n > hotMaxLen {
			return nil
		}
		if hotNeedsPattern(r) {
			if r.n > hotInlineMax {
				return nil
			}
			patBytes += int(r.n)
		}
	}
	if len(rs) < bucketMin {
		return s.buildHotFlat(rs, extra, patBytes)
	}
	var of [hotMax]uint8 // each rule's bucket
	count, slots, head, run := s.hotPlan(rs, &of)
	if len(rs) > bigSet && run > bigSet {
		return nil
	}
	if head == 1 {
		return s.buildHotFlat(rs, extra, patBytes) // the copies would be too many
	}
	patStart := head + hotWords*slots
	// Whole 128-byte pairs of cache lines: a block then starts on a
	// pair (its size class is a multiple of 128 bytes), and a question's
	// first read brings in the header, the bounds and the first slots
	// together (the adjacent-line prefetcher fetches a pair at once).
	n := (patStart + (patBytes+7)/8 + 15) &^ 15
	blk := make([]uint64, (n+extra+15)&^15)
	flags := uint64(hotBucketed)
	if slots > 255 {
		flags |= hotWide
	}
	blk[0] = uint64(n) | uint64(slots)<<32 | flags<<48
	// The pattern bytes, each rule's once.
	var pat []byte
	if patBytes > 0 {
		pat = unsafe.Slice((*byte)(unsafe.Pointer(&blk[patStart])), patBytes)
	}
	var offs [hotMax]uint32
	at := 0
	for i := range rs {
		r := &rs[i]
		offs[i] = uint32(8*patStart + at)
		if hotNeedsPattern(r) {
			at += copy(pat[at:], s.pat(r))
		}
	}
	slot := 0
	var firstAt [hotMax]int16 // 1 + the slot of each rule's first copy; 0 before it
	put := func(i int) {
		w := (*[hotWords]uint64)(blk[head+hotWords*slot:])
		if f := int(firstAt[i]); f > 0 {
			*w = *(*[hotWords]uint64)(blk[head+hotWords*(f-1):]) // a copy: the same words
		} else {
			s.hotSlot(w, &rs[i], i, offs[i])
			firstAt[i] = int16(slot + 1)
		}
		slot++
	}
	setBound := func(b, lo, hi int) {
		if flags&hotWide != 0 {
			blk[1+b/2] |= (uint64(lo) | uint64(hi)<<16) << (32 * (b & 1))
		} else {
			blk[1+b/4] |= (uint64(lo) | uint64(hi)<<8) << (16 * (b & 3))
		}
	}
	// The rules' positions grouped by bucket, in precedence order within
	// each (a counting sort).
	var start [hotBuckets + 2]int
	for b := range hotBuckets + 1 {
		start[b+1] = start[b] + count[b]
	}
	var pos [hotMax]uint8
	fill := start
	for i := range rs {
		pos[fill[of[i]]] = uint8(i)
		fill[of[i]]++
	}
	// The generic rules first, then each bucket's merged with them.
	generic := pos[start[hotBuckets]:start[hotBuckets+1]]
	for _, i := range generic {
		put(int(i))
	}
	setBound(hotBuckets, 0, slot)
	for b := range hotBuckets {
		x := pos[start[b]:start[b+1]]
		if len(x) == 0 {
			setBound(b, 0, len(generic))
			continue
		}
		lo := slot
		for y := generic; len(x) > 0 || len(y) > 0; {
			if len(y) == 0 || len(x) > 0 && x[0] < y[0] {
				put(int(x[0]))
				x = x[1:]
			} else {
				put(int(y[0]))
				y = y[1:]
			}
		}
		setBound(b, lo, slot)
	}
	return blk
}

// buildHotFlat is buildHot for rules that are not bucketed (fewer than
// bucketMin, or too many copies): each rule has one slot, in order, and
// its pattern bytes if it needs them, after the slots.
func (s *ruleSet) buildHotFlat(rs []crule, extra, patBytes int) []uint64 {
	patStart := 1 + hotWords*len(rs)
	n := (patStart + (patBytes+7)/8 + 15) &^ 15 // whole pairs of lines, as buildHot
	blk := make([]uint64, (n+extra+15)&^15)
	blk[0] = uint64(n) | uint64(len(rs))<<32
	var pat []byte
	if patBytes > 0 {
		pat = unsafe.Slice((*byte)(unsafe.Pointer(&blk[patStart])), patBytes)
	}
	at := 0
	for i := range rs {
		r := &rs[i]
		off := uint32(8*patStart + at)
		if hotNeedsPattern(r) {
			at += copy(pat[at:], s.pat(r))
		}
		s.hotSlot((*[hotWords]uint64)(blk[1+hotWords*i:]), r, i, off)
	}
	return blk
}

// hotSlot fills slot w with rule r, the set's i-th matchable rule, whose
// pattern bytes (if it needs them) are off bytes into the block.
func (s *ruleSet) hotSlot(w *[hotWords]uint64, r *crule, i int, off uint32) {
	p := s.pat(r)
	lit := int(r.lit)
	w0, w1 := min(lit, 8), min(max(lit-8, 0), 8)
	w[0] = word8(p[:w0])
	if w1 > 0 {
		w[1] = word8(p[8 : 8+w1])
	}
	flags := r.flags
	if flags&ruleWild != 0 && strings.IndexByte(p[lit+1:], '*') < 0 {
		flags |= hotOneStar
	}
	if hotNeedsPattern(r) {
		flags |= hotMore
	}
	w[2] = uint64(16*(w0+w1)) | uint64(lit)<<hotLitShift | uint64(r.n)<<hotNShift |
		uint64(flags)<<hotFlagsShift | uint64(i)<<hotIdxShift
	w[3] = uint64(off) | uint64(r.need)<<32
}

// hotPlan lays out the slots of a hot block of rules rs: it notes each
// rule's bucket in of (unless of is nil: when only the sizes are asked
// for) and counts them, and returns the number of slots
// (every rule once, or each bucket's rules merged with the generic ones
// when there are enough rules and the copies stay within
// maxBucketCopies), the words before them (head: 1, or more with a bucket
// table) and the most slots a question scans. The order of rs does not
// change them.
func (s *ruleSet) hotPlan(rs []crule, of *[hotMax]uint8) (count [hotBuckets + 1]int, slots, head, run int) {
	slots, head, run = len(rs), 1, len(rs)
	if len(rs) < bucketMin {
		return
	}
	for i := range rs {
		b := hotBuckets
		if r := &rs[i]; r.lit >= 2 {
			b = hotBucket(s.pat(r))
		}
		if of != nil {
			of[i] = uint8(b)
		}
		count[b]++
	}
	copies, longest := count[hotBuckets], count[hotBuckets]
	for b := range hotBuckets {
		if count[b] > 0 {
			copies += count[b] + count[hotBuckets]
			longest = max(longest, count[b]+count[hotBuckets])
		}
	}
	if copies <= maxBucketCopies*len(rs) {
		slots, head, run = copies, hotHead(copies), longest
	}
	return
}

// hotNeedsPattern reports whether matching rule r reads its pattern bytes
// beyond the slot's first sixteen.
func hotNeedsPattern(r *crule) bool {
	return r.lit > 16 || r.flags&(ruleWild|ruleAnchored) != 0
}
