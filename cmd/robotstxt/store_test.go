package main

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt/store/storetest"
)

// TestDamagedStoreFile runs check on a cache file damaged in every way
// storetest knows, named with --store and as the default cache file: no
// run crashes, each answers, and a damaged file moved aside is told in one
// line on stderr. A named file that is no bbolt file at all is refused,
// without advice to remove it.
func TestDamagedStoreFile(t *testing.T) {
	s := newSite(t, 200, siteRules)
	file := filepath.Join(t.TempDir(), "cache.db")
	if code, _, stderr := runCmd(t, "", "fetch", "--store", file, s.URL); code != 0 {
		t.Fatalf("fetch: exit %d: %s", code, stderr)
	}
	healthy, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// Keep the pages in use (the page count is at byte 56 of the meta
	// page with the higher transaction id, at byte 64).
	ps := os.Getpagesize()
	m := healthy[:ps]
	if binary.NativeEndian.Uint64(healthy[ps+64:]) > binary.NativeEndian.Uint64(m[64:]) {
		m = healthy[ps : 2*ps]
	}
	healthy = healthy[:binary.NativeEndian.Uint64(m[56:])*uint64(ps)]

	variants := storetest.DamagedFiles(healthy, ps)
	t.Logf("%d variants of a %d-byte file", len(variants), len(healthy))
	for _, v := range variants {
		for _, named := range []bool{true, false} {
			path, args := file, []string{"check", "-u", s.URL, "--store", file, "/private/x"}
			if !named {
				path = filepath.Join(useTempCache(t), "robotstxt", "cache.db")
				args = []string{"check", "-u", s.URL, "/private/x"}
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, v.Data, 0o600); err != nil {
				t.Fatal(err)
			}
			code, out, stderr := runCmd(t, "", args...)
			switch {
			case code == 1 && strings.Contains(out, "BLOCKED"):
				if stderr != "" && (!strings.HasPrefix(stderr, "robotstxt: cache file "+path+" was damaged (") ||
					!strings.Contains(stderr, "; moved it to "+path+".damaged-") || strings.Count(stderr, "\n") != 1) {
					t.Errorf("%s (named %v): stderr %q", v.Name, named, stderr)
				}
			case code == 2 && named && strings.Contains(stderr, "is not a bbolt file") && !strings.Contains(stderr, "remove"):
			default:
				t.Errorf("%s (named %v): exit %d\nstdout: %s\nstderr: %s", v.Name, named, code, out, stderr)
			}
			matches, _ := filepath.Glob(path + ".damaged-*")
			for _, m := range matches {
				os.Remove(m)
			}
		}
	}
}

// TestFetchInvalidUserAgent: -A with a control character is refused before
// anything is fetched, and no cache file is created.
func TestFetchInvalidUserAgent(t *testing.T) {
	s := newSite(t, 200, siteRules)
	file := filepath.Join(t.TempDir(), "cache.db")
	code, out, stderr := runCmd(t, "", "fetch", "--store", file, "-A", "bot\r\nX-Injected: 1", s.URL)
	if code != 2 || out != "" || !strings.Contains(stderr, "-A: ") || !strings.Contains(stderr, "invalid User-Agent") {
		t.Errorf("exit %d\nstdout: %s\nstderr: %s", code, out, stderr)
	}
	if s.hits.Load() != 0 {
		t.Errorf("%d requests", s.hits.Load())
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("the cache file was created: %v", err)
	}
}

// TestUnwritableDefaultStore: when the default cache file cannot be made
// (here the user's cache directory would be under a regular file, which
// stops root too), fetch, check -u, bulk and serve run on memory, as the
// README says, and say so on stderr in one line naming the file and the
// error. A file named with --store in such a place stays an error.
func TestUnwritableDefaultStore(t *testing.T) {
	s := newSite(t, 200, siteRules)
	notDir := filepath.Join(t.TempDir(), "file-not-dir")
	if err := os.WriteFile(notDir, []byte("a file"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", notDir)
	path := filepath.Join(notDir, ".cache", "robotstxt", "cache.db")
	wantLine := func(stderr string) bool {
		for _, l := range strings.Split(stderr, "\n") {
			if strings.HasPrefix(l, "robotstxt: cannot use the default cache file "+path+": ") &&
				strings.Contains(l, "not a directory") && strings.HasSuffix(l, "; using memory for this run") {
				return true
			}
		}
		return false
	}
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		code  int
	}{
		{"fetch", "", []string{"fetch", s.URL}, 0},
		{"check -u", "", []string{"check", "-u", s.URL, "/private/x"}, 1},
		{"bulk", s.URL + "/private/x\n", []string{"bulk", "-a", "MyBot"}, 0},
	} {
		code, out, stderr := runCmd(t, tc.stdin, tc.args...)
		if code != tc.code || !wantLine(stderr) {
			t.Errorf("%s: exit %d, want %d\nstdout: %s\nstderr: %s", tc.name, code, tc.code, out, stderr)
		}
	}
	page, stderr, stop := startServe(t, "--addr", "127.0.0.1:0")
	if code, body := httpGet(t, page+"readyz"); code != 200 || !strings.Contains(string(body), "memory") {
		t.Errorf("serve: readyz %d %s", code, body)
	}
	if code := stop(); code != 0 || !wantLine(stderr.String()) {
		t.Errorf("serve: exit %d\nstderr: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(notDir, ".cache")); err == nil {
		t.Error("something was made under the file")
	}

	named := filepath.Join(notDir, "cache.db")
	code, out, errOut := runCmd(t, "", "fetch", "--store", named, s.URL)
	if code != 2 || !strings.Contains(errOut, "--store: ") || !strings.Contains(errOut, "not a directory") {
		t.Errorf("--store %s: exit %d\nstdout: %s\nstderr: %s", named, code, out, errOut)
	}
}

// TestStoreSpecMistyped: a --store value that looks like a mistyped kind or
// URL is refused, naming the kinds, instead of becoming a cache file of
// that name in the current directory; one that is clearly a path is a
// cache file.
func TestStoreSpecMistyped(t *testing.T) {
	s := newSite(t, 200, siteRules)
	useTempCache(t)
	dir := t.TempDir()
	t.Chdir(dir)
	for _, spec := range []string{"Memory", "MEMORY", "memroy", "redis:/127.0.0.1:6379", "redis:127.0.0.1:6379", "localhost:6379", "127.0.0.1:6379", "http:/x"} {
		code, out, stderr := runCmd(t, "", "fetch", "--store", spec, s.URL)
		if code != 2 || !strings.Contains(stderr, "--store: ") || !strings.Contains(stderr, `"memory"`) ||
			!strings.Contains(stderr, "redis://") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("--store %q: exit %d\nstdout: %s\nstderr: %s", spec, code, out, stderr)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files made in the current directory: %v", entries)
	}
	for _, spec := range []string{"./Memory", "cache.db", "sub/redis:x"} {
		if code, out, stderr := runCmd(t, "", "fetch", "--store", spec, s.URL); code != 0 {
			t.Errorf("--store %q: exit %d\nstdout: %s\nstderr: %s", spec, code, out, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, spec)); err != nil {
			t.Errorf("--store %q: %v", spec, err)
		}
	}
}
