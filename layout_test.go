package robotstxt

import (
	"testing"
	"unsafe"
)

// TestHotLayout checks that what Allowed reads of a Robots before the hot
// block lies within its first two cache lines, and that a Robots is large
// enough that the allocator starts it on a 128-byte boundary.
func TestHotLayout(t *testing.T) {
	var r Robots
	base := uintptr(unsafe.Pointer(&r))
	end := uintptr(unsafe.Pointer(&r.google.fastBuf)) + unsafe.Sizeof(r.google.fastBuf) - base
	if end > 128 {
		t.Errorf("the token table ends %d bytes into a Robots, past its first two cache lines", end)
	}
	if n := unsafe.Sizeof(r); n < 1024 {
		t.Errorf("a Robots is %d bytes: below 1024, the allocator's size classes do not keep it on a 128-byte boundary", n)
	}
}
