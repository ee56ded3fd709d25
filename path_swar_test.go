package robotstxt

import (
	"math/rand/v2"
	"strings"
	"testing"
)

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
		want := -1
		for i := from; i < len(s); i++ {
			if s[i] == '/' || s[i] == '?' || s[i] == ';' {
				want = i
				break
			}
		}
		if got := indexPathStart(s, from); got != want {
			t.Fatalf("%q from %d: %d want %d", s, from, got, want)
		}
	}
}

// TestAllowedPath checks the fused scan Allowed uses against
// PathParamsQuery cut at the first NUL.
func TestAllowedPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alpha := "ab/?;#\x00:."
	prefixes := []string{"http://", "https://", "", "//", "ftp://", "http:/", "HTTP://"}
	for n := 0; n < 50000; n++ {
		b := make([]byte, rng.IntN(30))
		for i := range b {
			b[i] = alpha[rng.IntN(len(alpha))]
		}
		url := prefixes[rng.IntN(len(prefixes))] + string(b)
		want := PathParamsQuery(url)
		if i := strings.IndexByte(want, 0); i >= 0 {
			want = want[:i]
		}
		p, slash := allowedPath(url)
		if slash {
			p = "/" + p
		}
		if p != want {
			t.Fatalf("%q: %q, want %q", url, p, want)
		}
	}
}
