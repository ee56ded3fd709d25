package robotstxt

import (
	"math/rand/v2"
	"testing"
)

// TestIndexPathStartSWAR checks the word-at-a-time scans against byte loops.
func TestIndexPathStartSWAR(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alpha := "ab/?;.:#\x00\xff\x2e\x3e\x3a"
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
