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
