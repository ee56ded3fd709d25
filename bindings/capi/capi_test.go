package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
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

// FuzzABI calls every exported function as a C host would, with arbitrary
// bytes in C memory: no call may crash or report an internal error (a
// recovered panic), a failure must leave a message in *err and a success
// none, every JSON answer must decode, and no handle may outlive the
// iteration.
func FuzzABI(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /x\nSitemap: /s\n"), []byte("Googlebot"), []byte("/x"), 0, 0, 200, []byte("text/plain"))
	f.Add([]byte("\xef\xbb\xbfuser-agent bingbot\ndisallow /\x00"), []byte("bingbot"), []byte{}, 2, 3, 503, []byte{})
	f.Add([]byte{}, []byte("Mozilla/5.0 (compatible; x/1)"), []byte("http://a/\xff"), 1, 9, -4, []byte("x"))
	f.Fuzz(func(t *testing.T, body, agent, url []byte, kind, dialect, status int, ct []byte) {
		before := rtx_alive()
		b, a, u, c := newCBuf(body), newCBuf(agent), newCBuf(url), newCBuf(ct)
		defer b.free()
		defer a.free()
		defer u.free()
		defer c.free()
		e := newErrSlot()
		defer e.free()
		k, d := cint(kind), cint(dialect)
		check := func(what string, failed bool) {
			t.Helper()
			msg := e.take()
			if failed != (msg != "") || strings.Contains(msg, "internal error") {
				t.Fatalf("%s: failed %v, message %q", what, failed, msg)
			}
		}
		text := func(what string, p cstring) {
			t.Helper()
			s, ok := goString(p)
			check(what, !ok)
			if ok && !json.Valid([]byte(s)) {
				t.Fatalf("%s: invalid JSON %q", what, s)
			}
		}
		ask := func(h int64) {
			v := rtx_ask(c64(h), a.p, a.n, k, u.p, u.n, d, e.p)
			check("rtx_ask", v < 0)
			w := rtx_allowed(c64(h), a.p, a.n, k, u.p, u.n, d, e.p)
			check("rtx_allowed", w < 0)
			if v >= 0 && int64(w) != int64(v&1) {
				t.Fatalf("rtx_ask %d, rtx_allowed %d", v, w)
			}
			text("rtx_decide", rtx_decide(c64(h), a.p, a.n, k, u.p, u.n, d, e.p))
			text("rtx_usage", rtx_usage(c64(h), a.p, a.n, k, u.p, u.n, d, e.p))
			text("rtx_crawl_delay", rtx_crawl_delay(c64(h), a.p, a.n, k, d, e.p))
			text("rtx_sitemaps", rtx_sitemaps(c64(h), e.p))
			text("rtx_info", rtx_info(c64(h), e.p))
		}
		h := int64(rtx_parse(b.p, b.n, e.p))
		check("rtx_parse", h < 0)
		ask(h)
		rtx_free(c64(h))
		ask(h) // freed: every call fails cleanly
		policy := cint(0)
		h = int64(rtx_for_status(cint(status), c.p, c.n, b.p, b.n, d, &policy, e.p))
		check("rtx_for_status", h < 0)
		if h >= 0 {
			if policy < 1 || policy > 3 {
				t.Fatalf("policy %d", policy)
			}
			ask(h)
			rtx_free(c64(h))
		}
		dn := rtx_dialect(a.p, a.n, e.p)
		check("rtx_dialect", dn < 0)
		if rtx_alive() != before {
			t.Fatalf("%d handles alive, %d before", rtx_alive(), before)
		}
	})
}
