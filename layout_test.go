package robotstxt

import (
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
