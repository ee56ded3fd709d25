package robotstxt

import (
	"math/rand/v2"
	"testing"
)

// TestWord8 checks word8 against a byte loop for every length up to nine.
func TestWord8(t *testing.T) {
	const s = "\x01\x82\x03\xf4\x05\x06\x07\x08\x09"
	for n := 0; n <= len(s); n++ {
		var want uint64
		for i := min(n, 8) - 1; i >= 0; i-- {
			want = want<<8 | uint64(s[i])
		}
		if got := word8(s[:n]); got != want {
			t.Errorf("word8(%q) = %#x, want %#x", s[:n], got, want)
		}
	}
}

// TestBeWord8 checks beWord8 against a byte loop for every length up to
// nine: the bytes big-endian, zero-padded.
func TestBeWord8(t *testing.T) {
	const s = "\x01\x82\x03\xf4\x05\x06\x07\x08\x09"
	for n := 0; n <= len(s); n++ {
		var want uint64
		for i := 0; i < 8; i++ {
			want <<= 8
			if i < n {
				want |= uint64(s[i])
			}
		}
		if got := beWord8(s[:n]); got != want {
			t.Errorf("beWord8(%q) = %#x, want %#x", s[:n], got, want)
		}
	}
}

// TestFoldWords checks foldWords, which reads whole words, against
// foldWord8 of each half for every length up to twenty: the first sixteen
// bytes with ASCII upper case folded, zero-padded.
func TestFoldWords(t *testing.T) {
	const s = "AbCdEfGhIjKlMnOpQrSt"
	for n := 0; n <= len(s); n++ {
		v := s[:n]
		want0, want1 := foldWord8(v[:min(n, 8)]), uint64(0)
		if n > 8 {
			want1 = foldWord8(v[8:min(n, 16)])
		}
		if got0, got1 := foldWords(v); got0 != want0 || got1 != want1 {
			t.Errorf("foldWords(%q) = %#x %#x, want %#x %#x", v, got0, got1, want0, want1)
		}
	}
}

// TestIndexPathStartSWAR checks the word-at-a-time scans against byte loops.
func TestIndexPathStartSWAR(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	// '+' passes the scan's first test and must be passed over; '*', '.',
	// ':', '>' and '"' are the bytes a borrow from a marked byte could
	// wrongly mark after it.
	alpha := "ab/?;.:#\x00\xff\x2e\x3e\x3a+++*\""
	for n := 0; n < 20000; n++ {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = alpha[rng.IntN(len(alpha))]
		}
		s := string(b)
		from := 0
		if len(s) > 0 {
			from = rng.IntN(len(s) + 1)
		}
		want, wantF := -1, -1
		for i := from; i < len(s); i++ {
			if s[i] == '/' || s[i] == '?' || s[i] == ';' {
				want = i
				break
			}
		}
		for i := from; i < len(s); i++ {
			if s[i] == '/' || s[i] == '?' || s[i] == ';' || s[i] == '#' {
				wantF = i
				break
			}
		}
		if got := indexPathStart(s, from, '/'); got != want {
			t.Fatalf("%q from %d: %d want %d", s, from, got, want)
		}
		if got := indexPathStart(s, from, '#'); got != wantF {
			t.Fatalf("indexPathStart(%q, %d, '#') = %d, want %d", s, from, got, wantF)
		}
	}
}

// TestScansSWAR checks the other word-at-a-time scans (the path's end, a
// value's end, a line's end) against byte loops.
func TestScansSWAR(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alpha := "ab#\x00\n\r\x01\"\x22\x24\x0b\x0c\x0e\xff"
	first := func(s string, from int, set string) int {
		for i := from; i < len(s); i++ {
			for j := 0; j < len(set); j++ {
				if s[i] == set[j] {
					return i
				}
			}
		}
		return len(s)
	}
	for n := 0; n < 20000; n++ {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = alpha[rng.IntN(len(alpha))]
		}
		s := string(b)
		from := rng.IntN(len(s) + 1)
		if got, want := pathEnd(s), first(s, 0, "#\x00"); got != want {
			t.Fatalf("pathEnd(%q) = %d, want %d", s, got, want)
		}
		if got, want := indexValueEnd(s, from), first(s, from, "\n\r#"); got != want {
			t.Fatalf("indexValueEnd(%q, %d) = %d, want %d", s, from, got, want)
		}
		if got, want := indexLineEnd(s, from), first(s, from, "\n\r"); got != want {
			t.Fatalf("indexLineEnd(%q, %d) = %d, want %d", s, from, got, want)
		}
	}
}

// TestByteClassesSWAR checks byteClasses, which reads eight bytes at a
// time, against a byte loop, at every length around the word boundaries.
func TestByteClassesSWAR(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 0; n < 20000; n++ {
		b := make([]byte, rng.IntN(41))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		var want uint32
		for _, c := range b {
			want |= 1 << (c & 31)
		}
		if got := byteClasses(string(b)); got != want {
			t.Fatalf("%q: %#x want %#x", b, got, want)
		}
	}
}
