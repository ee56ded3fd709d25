package robotstxt

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSplitPathFast checks splitPathRaw's word-at-a-time way for URLs
// starting "http://" or "https://" against a byte loop that follows
// Google's reading: the path, params and query start at the first '/', '?'
// or ';' after the scheme, and a '#' before that leaves no path.
func TestSplitPathFast(t *testing.T) {
	ref := func(url string, from int) (string, bool) {
		for i := from; i < len(url); i++ {
			switch url[i] {
			case '#':
				return "/", false
			case '/', '?', ';':
				return url[i:], url[i] != '/'
			}
		}
		return "/", false
	}
	rng := rand.New(rand.NewPCG(7, 8))
	// The bytes the scan's test finds besides the four it looks for
	// ('\'', '+', '3', '7'), the four, and bytes a borrow could mark.
	alpha := "ab3'7+/?;#.:*\x00\xff\x2e\x3e\"0"
	for _, scheme := range []string{"http://", "https://", "HTTP://", "http:/", "ftp://", "//", ""} {
		for n := 0; n < 20000; n++ {
			b := make([]byte, rng.IntN(40))
			for i := range b {
				b[i] = alpha[rng.IntN(len(alpha))]
			}
			url := scheme + string(b)
			gotP, gotS := splitPathRaw(url)
			// The general way finds where the authority starts, then
			// reads on as for "http://".
			wantP, wantS := "/", false
			if from := authorityStart(url); from >= 0 {
				wantP, wantS = ref(url, from)
			}
			if scheme == "http://" || scheme == "https://" {
				wantP, wantS = ref(url, len(scheme))
			}
			if gotP != wantP || gotS != wantS {
				t.Fatalf("splitPathRaw(%q) = %q, %v; want %q, %v", url, gotP, gotS, wantP, wantS)
			}
		}
	}
	// Every length around the word boundaries, a path or not at each place.
	for n := 0; n < 40; n++ {
		for at := 0; at <= n; at++ {
			for _, c := range []byte("/?;#3") {
				b := []byte(strings.Repeat("x", n))
				if at < n {
					b[at] = c
				}
				for _, scheme := range []string{"http://", "https://"} {
					url := scheme + string(b)
					gotP, gotS := splitPathRaw(url)
					wantP, wantS := ref(url, len(scheme))
					if gotP != wantP || gotS != wantS {
						t.Fatalf("splitPathRaw(%q) = %q, %v; want %q, %v", url, gotP, gotS, wantP, wantS)
					}
				}
			}
		}
	}
}
