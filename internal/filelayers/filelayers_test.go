package filelayers

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a TB that keeps what Check says.
type recorder struct{ errs []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatal(args ...any) { r.errs = append(r.errs, fmt.Sprint(args...)) }
func (r *recorder) Fatalf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestCheck: a package whose files a.go and b.go call each other is a
// cycle, named with the calls; with b.go calling c.go only, layers.
func TestCheck(t *testing.T) {
	write := func(dir string, files map[string]string) {
		for name, src := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	all := func(string) bool { return true }

	cyc := t.TempDir()
	write(cyc, map[string]string{
		"a.go": "package p\n\nfunc A() { B() }\n",
		"b.go": "package p\n\nfunc B() {}\n\nfunc B2() { A() }\n",
	})
	var r recorder
	Check(&r, cyc, "p", all, 1)
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "a.go, b.go") || !strings.Contains(r.errs[0], "B2 calls A") {
		t.Errorf("a cycle of a.go and b.go: %q", r.errs)
	}

	ok := t.TempDir()
	write(ok, map[string]string{
		"a.go": "package p\n\nfunc A() { B() }\n",
		"b.go": "package p\n\nfunc B() { C() }\n",
		"c.go": "package p\n\nfunc C() {}\n",
	})
	r = recorder{}
	Check(&r, ok, "p", all, 2)
	if len(r.errs) != 0 {
		t.Errorf("layers a -> b -> c: %q", r.errs)
	}
}
