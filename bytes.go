package robotstxt

import (
	"math/bits"
	"unsafe"
)

// The byte helpers, at the bottom of the package: they call nothing of it,
// and the reader, the builder and the answering code all call them. Word
// loads read eight bytes of a string as one little-endian (or big-endian)
// word; zero-byte finding marks, in such a word, the bytes equal to a given
// one ((x - 0x01..01) &^ x & 0x80..80); mark finding uses it to look for
// the bytes that end a line, a value or a path eight at a time.

// le64 reads the first eight bytes of s as a little-endian word.
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// le64At is le64(s[i:]) without the bounds checks, for the loops that read
// a string eight bytes at a time: the caller makes sure that 0 <= i and
// i+8 <= len(s).
func le64At(s string, i int) uint64 {
	b := (*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), i))
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// word8 packs the first (up to) eight bytes of s, little-endian, zero-padded.
func word8(s string) uint64 {
	if len(s) >= 8 {
		return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	}
	// Two overlapping loads of the first and last bytes: the bytes they
	// share are the same.
	switch n := len(s); {
	case n >= 4:
		lo := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24
		t := s[n-4:]
		hi := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24
		return lo | hi<<(8*(n-4))
	case n >= 2:
		return uint64(s[0]) | uint64(s[1])<<8 | (uint64(s[n-2])|uint64(s[n-1])<<8)<<(8*(n-2))
	case n == 1:
		return uint64(s[0])
	}
	return 0
}

// wordMask[k] keeps the low k bytes of a word (k <= 8). It has 256 entries
// so that indexing it with a uint8 needs no bounds check.
var wordMask = [256]uint64{0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffff, 0xffffffffffff, 0xffffffffffffff, 0xffffffffffffffff}

// beWord8 packs the first (up to) eight bytes of s, big-endian,
// zero-padded: words compare as the strings' first eight bytes do. (word8
// packs them little-endian: the same bytes, reversed.)
func beWord8(s string) uint64 { return bits.ReverseBytes64(word8(s)) }

// beMask returns the mask of a big-endian word's first n bytes (none for n
// <= 0, all for n >= 8).
func beMask(n int) uint64 {
	switch {
	case n <= 0:
		return 0
	case n >= 8:
		return ^uint64(0)
	}
	return ^uint64(0) << (64 - 8*n)
}

// Words of eight equal bytes, for looking at eight bytes at a time.
const (
	ones8 = 0x0101010101010101
	high8 = 0x8080808080808080
)

// zeroBytes returns a word with the top bit set in the byte of x that is
// zero, when one is, the lowest such bit marking the first: bytes above a
// zero byte may be marked too.
func zeroBytes(x uint64) uint64 { return (x - ones8) &^ x & high8 }

// fold8 is word w with its ASCII upper-case letters in lower case.
func fold8(w uint64) uint64 {
	const ones = 0x0101010101010101
	// For each byte b < 0x80: b+(0x80-'A') has its top bit set when
	// b >= 'A', and b+(0x80-'Z'-1) when b > 'Z'.
	h := w & (0x7f * ones)
	upper := (h + (0x80-'A')*ones) &^ (h + (0x80-'Z'-1)*ones) &^ w & (0x80 * ones)
	return w | upper>>2
}

// foldWord8 is word8 of s with the ASCII upper-case letters of its first
// eight bytes in lower case.
func foldWord8(s string) uint64 { return fold8(word8(s)) }

// foldWords returns foldWord8 of the first sixteen bytes of s, in two
// words. For product tokens (letters, '-' and '_') of up to sixteen bytes,
// equal words and lengths mean equal tokens, ignoring case.
func foldWords(s string) (uint64, uint64) {
	switch {
	case len(s) >= 16:
		return fold8(le64At(s, 0)), fold8(le64At(s, 8))
	case len(s) > 8:
		// The last eight bytes hold bytes 8 on.
		return fold8(le64At(s, 0)), fold8(le64At(s, len(s)-8) >> (8 * (16 - len(s))))
	}
	return foldWord8(s), 0
}

// equalFoldASCII reports whether a and b, of equal length (or b longer:
// its first len(a) bytes are compared), are equal ignoring ASCII case.
func equalFoldASCII(a, b string) bool {
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// hasHighByte reports whether s holds a byte of 0x80 or above, eight bytes
// at a time.
func hasHighByte(s string) bool {
	for len(s) >= 32 {
		if (le64(s)|le64(s[8:])|le64(s[16:])|le64(s[24:]))&0x8080808080808080 != 0 {
			return true
		}
		s = s[32:]
	}
	for len(s) >= 8 {
		w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		if w&0x8080808080808080 != 0 {
			return true
		}
		s = s[8:]
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// byteClasses sets bit b&31 for every byte b of s: a path can only match a
// wildcard pattern whose literal bytes' classes it all has.
func byteClasses(s string) uint32 {
	var m uint32
	if len(s) < 8 {
		for i := 0; i < len(s); i++ {
			m |= 1 << (s[i] & 31)
		}
		return m
	}
	// Eight bytes a load; the last load overlaps bytes already counted,
	// which adds nothing to a union.
	for i := 0; ; i += 8 {
		if i+8 > len(s) {
			i = len(s) - 8
		}
		w := le64At(s, i)
		m |= 1 << (w & 31)
		m |= 1 << (w >> 8 & 31)
		m |= 1 << (w >> 16 & 31)
		m |= 1 << (w >> 24 & 31)
		m |= 1 << (w >> 32 & 31)
		m |= 1 << (w >> 40 & 31)
		m |= 1 << (w >> 48 & 31)
		m |= 1 << (w >> 56 & 31)
		if i+8 == len(s) {
			return m
		}
	}
}

// pathEnd returns the index of the first '#' or NUL byte of path, or
// len(path): one pass, eight bytes at a time.
func pathEnd(path string) int {
	i := 0
	for ; i+8 <= len(path); i += 8 {
		w := le64At(path, i)
		if t := zeroBytes(w) | zeroBytes(w^'#'*ones8); t != 0 {
			return i + bits.TrailingZeros64(t)>>3
		}
	}
	if j := len(path) - 8; i < len(path) && j >= 0 {
		// The last bytes by a load overlapping those looked at, which
		// hold neither byte (so none of them borrows into the marks).
		w := le64At(path, j)
		t := (zeroBytes(w) | zeroBytes(w^'#'*ones8)) &^ (1<<(8*(i-j)) - 1)
		if t != 0 {
			return j + bits.TrailingZeros64(t)>>3
		}
		return len(path)
	}
	for ; i < len(path); i++ {
		if c := path[i]; c == '#' || c == 0 {
			return i
		}
	}
	return i
}

// cutPath cuts path at its first '#' or NUL byte.
func cutPath(path string) string { return path[:pathEnd(path)] }

// indexLineEnd returns the index of the first '\n' or '\r' in s at or
// after i, or len(s).
func indexLineEnd(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		w := le64At(s, i)
		if t := zeroBytes(w^'\n'*ones8) | zeroBytes(w^'\r'*ones8); t != 0 {
			return i + bits.TrailingZeros64(t)>>3
		}
	}
	for i < len(s) && s[i] != '\n' && s[i] != '\r' {
		i++
	}
	return i
}

// valueEnd marks the bytes that end a value: the line endings and the
// comment sign.
var valueEnd = [256]bool{'\n': true, '\r': true, '#': true}

// indexValueEnd returns the index of the first '\n', '\r' or '#' in s at or
// after i, or len(s).
func indexValueEnd(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		// The three bytes are below 0x24: look for such bytes first (a
		// space, '!' or '"' may be one), then at each of them.
		w := le64At(s, i)
		t := (w - 0x24*ones8) &^ w & high8
		for t != 0 {
			j := i + bits.TrailingZeros64(t)>>3
			if valueEnd[s[j]] {
				return j
			}
			t &= t - 1
		}
	}
	for i < len(s) && !valueEnd[s[i]] {
		i++
	}
	return i
}

// pathStart marks the bytes that start a URL's path, params or query.
var pathStart = [256]bool{'/': true, '?': true, ';': true}

// indexPathStart returns the index of the first '/', '?' or ';' in s at or
// after from, or of the first byte also, whichever comes first; -1 when there
// is none. (also is '#' to stop at a fragment; '/' adds nothing.) It looks
// at eight bytes at a time: x has a zero byte when (x - 0x01..01) &^ x &
// 0x80..80 is not zero, and the lowest set bit of that marks the first one.
// '/', ';' and '?' (0x2F, 0x3B, 0x3F) are the bytes b with b|0x14 == 0x3F,
// as is '+' (0x2B) alone besides them: one test finds the three, and a '+'
// it finds is passed over (by the byte loop: a URL's authority seldom holds
// one).
func indexPathStart(s string, from int, also byte) int {
	alsos := uint64(also) * ones8
	marks := func(w uint64) uint64 {
		return zeroBytes((w|0x14*ones8)^0x3F*ones8) | zeroBytes(w^alsos)
	}
	i := from
	for ; i+8 <= len(s); i += 8 {
		if m := marks(le64At(s, i)); m != 0 {
			i += bits.TrailingZeros64(m) / 8
			if s[i] != '+' {
				return i
			}
			return indexPathStartBytes(s, i+1, also)
		}
	}
	if j := len(s) - 8; i < len(s) && j >= from {
		// The last bytes, by a load that overlaps bytes already looked
		// at: their marks are cleared. (No byte before i matched, so
		// none of them borrows into the marks of those after.)
		if m := marks(le64At(s, j)) &^ (1<<(8*(i-j)) - 1); m != 0 {
			i = j + bits.TrailingZeros64(m)/8
			if s[i] != '+' {
				return i
			}
			return indexPathStartBytes(s, i+1, also)
		}
		return -1
	}
	return indexPathStartBytes(s, i, also)
}

// indexPathStartBytes is indexPathStart a byte at a time.
func indexPathStartBytes(s string, i int, also byte) int {
	for ; i < len(s); i++ {
		if c := s[i]; pathStart[c] || c == also {
			return i
		}
	}
	return -1
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// cmpUint64 compares a and b, known to differ: -1 when a is less, else 1.
func cmpUint64(a, b uint64) int {
	if a < b {
		return -1
	}
	return 1
}
