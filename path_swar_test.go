package robotstxt

import (
	"math/rand/v2"
	"strings"
	"testing"
)

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
