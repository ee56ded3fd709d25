package robotstxt

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"
)

// TestHotLayout checks that what Allowed reads of a Robots before the hot
// block (from its start to the end of the token entries kept in it) lies
// within one 128-byte-aligned pair of cache lines, where the allocator puts
// a Robots: the adjacent-line prefetcher brings such a pair in at once.
func TestHotLayout(t *testing.T) {
	kept := make([]*Robots, 64)
	for i := range kept {
		r := new(Robots)
		kept[i] = r
		start := uintptr(unsafe.Pointer(r))
		end := uintptr(unsafe.Pointer(&r.google.fastBuf)) + unsafe.Sizeof(r.google.fastBuf)
		if start/128 != (end-1)/128 {
			t.Fatalf("a Robots (%d bytes) at %#x: the fields Allowed reads end at %#x, past its 128-byte pair of lines", unsafe.Sizeof(*r), start, end)
		}
	}
}

// TestHotBlockAlignment checks that hot blocks start on a 128-byte-aligned
// pair of cache lines, of every size a set can give: a question's first read
// of a block (its header, its bucket bounds and its first slots) then
// brings in both lines at once.
func TestHotBlockAlignment(t *testing.T) {
	var body strings.Builder
	body.WriteString("User-agent: *\n")
	seen := 0
	for n := 1; n <= bigSet; n++ {
		fmt.Fprintf(&body, "Disallow: /%c%d/%s*x\n", 'a'+n%26, n, strings.Repeat("p", n%40))
		r := ParseString(body.String())
		r.Compile()
		s := r.google.coldSet(r.google.global)
		if s.hot == nil {
			continue
		}
		seen++
		if a := uintptr(unsafe.Pointer(&s.hot[0])); a%128 != 0 || len(s.hot)%16 != 0 {
			t.Fatalf("%d rules: a hot block of %d words at %#x, not a whole number of 128-byte pairs of lines", n, len(s.hot), a)
		}
	}
	if seen < bigSet/2 {
		t.Fatalf("only %d sets had a hot block", seen)
	}
}
