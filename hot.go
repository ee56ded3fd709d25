package robotstxt

import (
	"strings"
	"unsafe"
)

// A small rule set in longest-match order (bigSet rules or fewer, or up to
// hotMax when no question scans more than bigSet slots) is matched through
// a hot block: what a question reads of the set, laid out in one array of
// words, so that a question about a site whose data is out of cache waits
// on memory as few times as it can. The block holds, in order:
//
//   - a header word: the block's length in words, its number of rule
//     slots, and flags;
//   - when the set is bucketed, a table of hotBuckets+1 bucket bounds
//     (the rules a path can match, chosen by its second byte; see
//     hotBucket): a byte for each end of a bound, four bounds to a word,
//     or with over 255 slots two bytes, two bounds to a word;
//   - the rule slots, hotWords words each: the first sixteen bytes of the
//     literal prefix in two words (a whole rule of up to sixteen literal
//     bytes is decided from them), then its lengths, flags and position
//     in the set, then where its pattern bytes are and the byte classes a
//     wildcard pattern needs;
//   - the pattern bytes of the rules that need them (longer literal
//     prefixes, wildcards and anchors).
//
// A bucket lists the rules whose pattern starts "/b" (b mapped to the
// bucket) merged with those that match whatever the path's second byte is,
// in precedence order, as copies; so a question scans one run of slots.
// The block has no pointer: the collector never scans it. build_hot.go
// lays a block out; the functions below read it.

// hotWords is the number of words of one rule slot.
const hotWords = 4

// hotBuckets is the number of buckets a bucketed block has besides the
// generic one: a path's second byte b (below 0x80) picks bucket b&15.
// With the header, the table of bounds fits in the block's first 48 bytes
// (a byte a bound), so a question reads one cache line before the rules.
const hotBuckets = 16

// The header's flags.
const (
	hotBucketed = 1 << iota // the block has a bucket table
	hotWide                 // over 255 slots: two bytes a bound
)

// hotHead returns the words before the slots of a bucketed block of slots
// slots: the header and the table of bounds.
func hotHead(slots int) int {
	if slots > 255 {
		return 1 + (hotBuckets+2)/2
	}
	return 1 + (hotBuckets+4)/4
}

// The slot's third word: how many bytes of the first two words to compare
// (16 bits: the offset in hotMasks of the masks of the literal prefix's
// first sixteen bytes at most), the literal prefix's length (16 bits), the
// pattern's length (its weight, 16 bits), the rule's flags (8 bits) and
// the rule's position in the set's rules (8 bits).
const (
	hotLitShift   = 16
	hotNShift     = 32
	hotFlagsShift = 48
	hotIdxShift   = 56
)

// hotMasks[k] keeps the first k bytes (k <= 16) of two words: the masks a
// slot's first two words are compared under.
var hotMasks = func() (m [17][2]uint64) {
	for k := 0; k <= 16; k++ {
		m[k] = [2]uint64{wordMask[min(k, 8)], wordMask[max(k-8, 0)]}
	}
	return
}()

// hotMaxLen is the longest pattern a hot block takes (its lengths are
// 16-bit); a set with a longer one is scanned.
const hotMaxLen = 1<<16 - 1

// hotBucket returns the bucket of a path (or of a pattern's literal prefix)
// by its second byte: hotBuckets for none or for a byte of 0x80 or above.
func hotBucket(s string) int {
	if len(s) < 2 || s[1] >= 0x80 {
		return hotBuckets
	}
	return int(s[1] & (hotBuckets - 1))
}

// hotAllows reports the verdict of the deciding rule whose slot's third
// word is w2: an allow, or a rule of weight 0 (the empty pattern), allows.
func hotAllows(w2 uint64) bool {
	return uint8(w2>>hotFlagsShift)&ruleAllow != 0 || uint16(w2>>hotNShift) == 0
}

// hotFind returns the third word of the slot of hot block blk that decides
// for path, or false when no rule matches. path may run past its end, as
// for eval.
func hotFind(blk []uint64, path string) (uint64, bool) {
	return hotFindAt(unsafe.Pointer(unsafe.SliceData(blk)), path)
}

// hotFindAt is hotFind for the block at hot (as built by buildHot: its
// header gives its length and layout, so its words are read with no
// bounds check).
func hotFindAt(hot unsafe.Pointer, path string) (uint64, bool) {
	head := *(*uint64)(hot)
	slots := int(uint16(head >> 32))
	flags := head >> 48
	lo, hi := 0, slots
	base := 1
	if flags&hotBucketed != 0 {
		base = hotHead(slots)
		b := hotBucket(path)
		if flags&hotWide == 0 {
			bw := *(*uint64)(unsafe.Add(hot, 8+8*(b/4))) >> (16 * (b & 3))
			lo, hi = int(uint8(bw)), int(uint8(bw>>8))
		} else {
			bw := *(*uint64)(unsafe.Add(hot, 8+8*(b/2))) >> (32 * (b & 1))
			lo, hi = int(uint16(bw)), int(uint16(bw>>16))
		}
	}
	if lo >= hi {
		return 0, false
	}
	var pw0, pw1 uint64 // the path's bytes 0-7 and 8-15, zero-padded
	switch {
	case len(path) >= 16:
		pw0, pw1 = le64At(path, 0), le64At(path, 8)
	case len(path) > 8:
		// The last eight bytes hold bytes 8 on.
		pw0, pw1 = le64At(path, 0), le64At(path, len(path)-8)>>(8*(16-len(path)))
	default:
		pw0 = word8(path)
	}
	// The bucket's slots, lo to hi-1.
	first := unsafe.Add(hot, (base+hotWords*lo)*8)
	// The first slot whose first sixteen bytes match, as hotScan finds
	// it (written out: no call, so nothing is spilled).
	masks := unsafe.Pointer(&hotMasks)
	plen := len(path)
	for off, end := uint(0), uint((hi-lo)*hotWords*8); off < end; off += hotWords * 8 {
		w := (*[hotWords]uint64)(unsafe.Add(first, off))
		m := (*[2]uint64)(unsafe.Add(masks, uint16(w[2])))
		if pw0&m[0] != w[0] {
			continue // most slots differ in their first eight bytes
		}
		if pw1&m[1] == w[1] && int(uint16(w[2]>>hotLitShift)) <= plen {
			if w2 := w[2]; (w2>>hotFlagsShift)&hotMore == 0 {
				return w2, true // decided by the slot's first sixteen bytes: the usual case
			}
			return hotFindMore(hot, first, int(off/(hotWords*8)), hi-lo, pw0, pw1, path)
		}
	}
	return 0, false
}

// hotFindMore is hotFindAt from slot k of the bucket's n slots at first,
// whose rule's first sixteen bytes match the path but whose rule needs
// more to be checked (a longer literal prefix, wildcards or an anchor).
// Apart, so that hotFindAt's own frame stays small for the usual case.
//
//go:noinline
func hotFindMore(hot, first unsafe.Pointer, k, n int, pw0, pw1 uint64, path string) (uint64, bool) {
	// The path's byte classes: all of them (no rule is passed over for
	// its classes) until a rule that needs some the path may lack is
	// met, then the path's own.
	classes := ^uint32(0)
	cut := -1
	for {
		w := (*[hotWords]uint64)(unsafe.Add(first, k*hotWords*8))
		w2 := w[2]
		if (w2>>hotFlagsShift)&hotMore == 0 {
			return w2, true
		}
		checked := true
		if classes == ^uint32(0) {
			if need := uint32(w[3] >> 32); need != 0 {
				// The classes of the uncut path: a superset, so a
				// rule is never wrongly passed over.
				classes = byteClasses(path)
				checked = need&^classes == 0
			}
		}
		if checked && hotRest(hot, w, path, &cut) {
			return w2, true
		}
		if k = hotScan(first, k+1, n, pw0, pw1, len(path), classes); k >= n {
			return 0, false
		}
	}
}

// hotScan returns the first of slots k to n-1 (at first) whose literal
// prefix's first sixteen bytes are those of the path (pw0, pw1: its first
// sixteen bytes, zero-padded), whose literal prefix is no longer than the
// path (of length plen) and whose needed byte classes are among classes;
// n when there is none. A function apart, which calls nothing: what its
// loop reads stays in registers.
//
//go:noinline
func hotScan(first unsafe.Pointer, k, n int, pw0, pw1 uint64, plen int, classes uint32) int {
	lacks := ^classes
	masks := unsafe.Pointer(&hotMasks)
	// Slot k is 32k bytes in; no bounds checks: k is below the slots'
	// count, and a slot's masks are in hotMasks by construction.
	for off, end := uint(k*hotWords*8), uint(n*hotWords*8); off < end; off += hotWords * 8 {
		w := (*[hotWords]uint64)(unsafe.Add(first, off))
		m := (*[2]uint64)(unsafe.Add(masks, uint16(w[2])))
		// One test (one branch) for both words of the literal prefix.
		if (pw0&m[0]^w[0])|(pw1&m[1]^w[1]) == 0 && int(uint16(w[2]>>hotLitShift)) <= plen &&
			uint32(w[3]>>32)&lacks == 0 {
			return int(off / (hotWords * 8))
		}
	}
	return n
}

// hotRest reports whether the rule of slot w matches path, whose first
// bytes match the slot's first sixteen, which is no shorter than its
// literal prefix and which has the byte classes the rule needs: it reads
// the rest of a literal prefix over sixteen bytes, and matches the anchor
// and the wildcards.
// *cut is where the path ends, once known (-1 until then).
func hotRest(hot unsafe.Pointer, w *[hotWords]uint64, path string, cut *int) bool {
	w2 := w[2]
	lit := int(uint16(w2 >> hotLitShift))
	rf := uint8(w2 >> hotFlagsShift)
	pat := hotPattern(hot, w)
	if lit > 16 && path[16:lit] != pat[16:lit] {
		return false
	}
	switch rf & (ruleWild | ruleAnchored) {
	case 0:
		return true
	case ruleAnchored:
		if *cut < 0 {
			*cut = pathEnd(path)
		}
		return *cut == lit
	}
	if *cut < 0 {
		*cut = pathEnd(path)
	}
	if *cut < lit {
		return false
	}
	rest := path[lit:*cut]
	if rf&hotOneStar != 0 {
		// "lit*seg" or "lit*seg$": no need to look for more stars.
		anchored := rf&ruleAnchored != 0
		seg := pat[lit+1 : len(pat)-int(rf&ruleAnchored>>2)]
		if anchored {
			return strings.HasSuffix(rest, seg)
		}
		return strings.Contains(rest, seg)
	}
	return globMatch(rest, pat[lit:], rf&ruleAnchored != 0)
}

// A slot's own flags, with the rule's: hotMore for a rule that the slot's
// first sixteen bytes do not decide (a longer literal prefix, wildcards or
// an anchor), hotOneStar for a wildcard pattern with one '*' only.
const (
	hotMore    = 1 << 6
	hotOneStar = 1 << 7
)

// hotPattern returns the pattern bytes of the rule in slot w of the block
// at hot (within the block by construction: no bounds check).
func hotPattern(hot unsafe.Pointer, w *[hotWords]uint64) string {
	return unsafe.String((*byte)(unsafe.Add(hot, uint32(w[3]))), uint16(w[2]>>hotNShift))
}
