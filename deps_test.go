package robotstxt

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStandardLibraryOnly checks that the core package imports only the
// standard library.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p != "github.com/seed53c283f5/robotstxt" {
			t.Errorf("the core package depends on %s, outside the standard library", p)
		}
	}
}
