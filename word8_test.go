package robotstxt

import "testing"

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
