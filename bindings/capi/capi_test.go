package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"testing"
)

// TestABI builds the shared library, compiles testdata/abi.c against
// robotstxt.h and runs it: every function through the C ABI, its errors,
// NULL arguments, the status policy and threads sharing a handle.
func TestABI(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the C driver is built with cc and pthreads")
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Fatalf("no C compiler (%s): cgo needs one to build this package anyway", cc)
	}
	dir := t.TempDir()
	lib := filepath.Join(dir, "librobotstxt.so")
	run(t, "", "go", "build", "-buildmode=c-shared", "-o", lib, ".")
	bin := filepath.Join(dir, "abi")
	run(t, "", cc, "-Wall", "-Werror", "-o", bin, "testdata/abi.c", "-L"+dir, "-lrobotstxt", "-Wl,-rpath,"+dir, "-lpthread")
	if out := run(t, "", bin); out != "ok\n" {
		t.Errorf("abi.c said %q", out)
	}

	// Every function the library exports is declared in robotstxt.h.
	gen, err := os.ReadFile(filepath.Join(dir, "librobotstxt.h"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("robotstxt.h")
	if err != nil {
		t.Fatal(err)
	}
	names := func(b []byte) []string {
		var out []string
		for _, m := range regexp.MustCompile(`\b(rtx_[a-z_]+)\(`).FindAllSubmatch(b, -1) {
			out = append(out, string(m[1]))
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	if g, d := names(gen), names(doc); !slices.Equal(g, d) {
		t.Errorf("exported %v, robotstxt.h declares %v", g, d)
	}
}

func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}
