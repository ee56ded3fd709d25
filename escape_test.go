package robotstxt

import (
	"strings"
	"testing"
)

// TestEscapeFrom checks escapeFrom, the scan for the first byte Google's
// escaping of a pattern changes, against the general percentEncodeFrom
// with isHighByte: on every string of up to five bytes over an alphabet
// of the bytes that matter (escapes, hex digits of both cases, high
// bytes) and on every rule value of the corpus sample.
func TestEscapeFrom(t *testing.T) {
	alpha := []byte{'%', '7', 'e', 'E', 'a', 'g', '/', 0xC3, 0xA9, 0x80}
	buf := make([]byte, 0, 5)
	var walk func()
	n := 0
	walk = func() {
		s := string(buf)
		if got, want := escapeFrom(s), percentEncodeFrom(s, isHighByte); got != want {
			t.Fatalf("escapeFrom(%q) = %d, percentEncodeFrom = %d", s, got, want)
		}
		n++
		if len(buf) == cap(buf) {
			return
		}
		for _, c := range alpha {
			buf = append(buf, c)
			walk()
			buf = buf[:len(buf)-1]
		}
	}
	walk()
	if n != 111111 {
		t.Fatalf("walked %d strings, want 111111", n)
	}
	values := 0
	for _, f := range benchData(t).files {
		r := Parse(f.body)
		for _, raw := range r.google.raws {
			v := r.google.body[raw.off : raw.off+raw.n]
			if got, want := escapeFrom(v), percentEncodeFrom(v, isHighByte); got != want {
				t.Fatalf("escapeFrom(%q) = %d, percentEncodeFrom = %d", v, got, want)
			}
			values++
		}
	}
	if values < 10000 {
		t.Fatalf("only %d rule values in the sample", values)
	}
}

// TestDiffers checks rawMatcher.differs against its definition, written
// the slow way: pattern v differs from the path before any '*' or '$' at
// a byte that escaping keeps. Over every pair of strings of up to four
// bytes over an alphabet of the bytes that matter, and longer ones that
// share a start of 0 to 20 bytes (across the word boundaries).
func TestDiffers(t *testing.T) {
	ref := func(v, path string) bool {
		j := 0
		for j < len(v) && j < len(path) && v[j] == path[j] && v[j] != '*' && v[j] != '$' {
			j++
		}
		if j == len(v) || v[j] == '*' || v[j] == '$' {
			return false
		}
		return percentEncodeFrom(v, isHighByte) > j
	}
	check := func(v, path string) {
		t.Helper()
		m := rawMatcher{path: path}
		if got, want := m.differs(v), ref(v, path); got != want {
			t.Fatalf("differs(%q) for path %q = %v, want %v", v, path, got, want)
		}
	}
	alpha := []string{"", "a", "%", "7", "e", "E", "*", "$", "\xc3"}
	var strs []string
	for _, a := range alpha {
		for _, b := range alpha {
			for _, c := range alpha {
				for _, d := range alpha {
					strs = append(strs, a+b+c+d)
				}
			}
		}
	}
	for _, v := range strs {
		for _, p := range strs[:len(strs):len(strs)] {
			if len(p) <= 2 {
				check(v, p)
			}
		}
		check(v, v)
		check(v, "/"+v)
	}
	for n := 0; n <= 20; n++ {
		start := strings.Repeat("/wiki", 4)[:n]
		for _, tail := range strs {
			for _, ptail := range []string{"", "x", "%7E", "%7e", "a%", "\xc3\xa9", "*"} {
				check(start+tail, start+ptail)
				check("/"+start+tail, "/"+start+"y"+ptail)
			}
			// The path holds the pattern's bytes, '*' and '$' too, and
			// differs after them.
			check(start+tail+"x", start+tail+"y")
			check(tail+start+"x", tail+start+"y")
		}
	}
}
