package storeopen

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt/store/boltstore"
	"github.com/seed53c283f5/robotstxt/store/storetest"
)

// healthyCache writes a cache file of a few hundred entries and returns its
// bytes.
func healthyCache(t *testing.T) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cache.db")
	s, err := boltstore.Open(path, &boltstore.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 60 {
		if err := s.Put(ctx, fmt.Sprintf("https://site-%d.example", i), bytes.Repeat([]byte{byte(i)}, (i*7919)%5000), 0); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// bbolt grows the file ahead of use: keep the pages its meta pages
	// count (the page count is at byte 56 of a meta page; the one with
	// the higher transaction id, at byte 64, is the one in use).
	ps := os.Getpagesize()
	m0, m1 := b[:ps], b[ps:2*ps]
	if binary.NativeEndian.Uint64(m1[64:]) > binary.NativeEndian.Uint64(m0[64:]) {
		m0 = m1
	}
	return b[:binary.NativeEndian.Uint64(m0[56:])*uint64(ps)]
}

// TestDamagedDefaultFile opens the default cache file damaged in every way
// storetest knows: Open never fails nor crashes, and whenever the file was
// replaced Notice says so in one line naming both files.
func TestDamagedDefaultFile(t *testing.T) {
	healthy := healthyCache(t)
	variants := storetest.DamagedFiles(healthy, os.Getpagesize())
	variants = append(variants, storetest.Damaged{Name: "notes", Data: []byte(strings.Repeat("my notes\n", 100))})
	var moved int
	for i, v := range variants {
		dir := filepath.Join(t.TempDir(), fmt.Sprint(i))
		t.Setenv("XDG_CACHE_HOME", dir)
		path := filepath.Join(dir, "robotstxt", "cache.db")
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, v.Data, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := Open("", &Options{NoSync: true})
		if err != nil {
			t.Errorf("%s: Open: %v", v.Name, err)
			continue
		}
		if h := Health(s); h.Degraded || h.Name != "bbolt "+path {
			t.Errorf("%s: Health = %+v", v.Name, h)
		}
		if n := Notice(s); n != "" {
			moved++
			if !strings.Contains(n, path+" was damaged") || !strings.Contains(n, path+".damaged-") || strings.Contains(n, "\n") {
				t.Errorf("%s: Notice = %q", v.Name, n)
			}
		}
		for j := range 60 {
			_, _, _ = s.Get(ctx, fmt.Sprintf("https://site-%d.example", j))
		}
		works(t, s)
		s.Close()
	}
	if moved == 0 {
		t.Fatal("no Notice")
	}
	t.Logf("%d variants, %d moved aside", len(variants), moved)
}

// TestNamedFileNotCache checks that a file the user names that is not a
// cache is refused, left alone, and not advised to be removed.
func TestNamedFileNotCache(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	notes := []byte(strings.Repeat("my notes\n", 1000))
	if err := os.WriteFile(path, notes, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, nil)
	if err == nil {
		s.Close()
		t.Fatal("Open succeeded")
	}
	if strings.Contains(err.Error(), "remove") || !strings.Contains(err.Error(), path) {
		t.Fatalf("error %q", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, notes) {
		t.Fatal("the file was changed")
	}
}
