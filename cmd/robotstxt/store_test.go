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
