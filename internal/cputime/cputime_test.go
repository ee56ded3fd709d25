package cputime

import (
	"runtime"
	"testing"
)

// TestProcessGrows: spinning for a while shows as CPU time where it is
// measured (unix), and it never goes back.
func TestProcessGrows(t *testing.T) {
	before := Process()
	x := 0
	for i := range 50_000_000 {
		x += i % 7
	}
	after := Process()
	if after < before {
		t.Fatalf("CPU time went back: %v then %v", before, after)
	}
	if runtime.GOOS != "windows" && runtime.GOOS != "js" && runtime.GOOS != "wasip1" && after == before {
		t.Errorf("no CPU time measured for %d iterations (%d)", 50_000_000, x)
	}
}
