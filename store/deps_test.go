package store_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoDriverDependencies checks that package store, and so a program that
// uses only its memory store, links neither bbolt nor go-redis: they are
// imported by boltstore, redisstore and storeopen alone.
func TestNoDriverDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p != "github.com/seed53c283f5/robotstxt/store" {
			t.Errorf("package store depends on %s, outside the standard library", p)
		}
	}
}
