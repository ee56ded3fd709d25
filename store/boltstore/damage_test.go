package boltstore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt/store/storetest"
)

// damageKey names the i-th entry of the file damaged.
func damageKey(i int) string { return fmt.Sprintf("https://site-%03d.example", i) }

// healthyFile writes a cache file with values of many sizes (some inline,
// some spanning pages), deletions (so the free list has pages) and leases,
// and returns its bytes and the values it holds.
func healthyFile(t testing.TB) ([]byte, map[string][]byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cache.db")
	s, err := Open(path, &Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{}
	for i := range 160 {
		k := damageKey(i)
		v := content(k, (i*7919)%3000)
		if i%37 == 0 {
			v = content(k, 9000+i) // overflow pages
		}
		if err := s.Put(ctx, k, v, 0); err != nil {
			t.Fatal(err)
		}
		want[k] = v
		if i%9 == 8 {
			if err := s.Delete(ctx, damageKey(i-4)); err != nil {
				t.Fatal(err)
			}
			delete(want, damageKey(i-4))
		}
		if i%50 == 0 {
			if _, err := s.Lease(ctx, k, "owner", 1e12); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// bbolt grows the file ahead of use; the pages past its page count
	// are not read, and only make each variant longer to write.
	m, _, err := readMetaBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return b[:m.pgid*m.pageSize], want
}

// TestDamagedFiles opens every damaged variant of a cache file and uses it:
// nothing may crash, a damaged file is moved aside and replaced by a new one,
// and a value read back is either the one stored or, when the damage hit
// the bytes of a value only, any bytes (the cache's checksum catches it).
func TestDamagedFiles(t *testing.T) {
	healthy, want := healthyFile(t)
	variants := storetest.DamagedFiles(healthy, os.Getpagesize())
	t.Logf("%d variants of a %d-byte file", len(variants), len(healthy))
	dir := t.TempDir()
	var moved, refused int
	for i, v := range variants {
		path := filepath.Join(dir, fmt.Sprintf("v%04d", i), "cache.db")
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, v.Data, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := Open(path, &Options{NoSync: true})
		if err != nil {
			// Only a file with no bbolt meta page left is refused, as
			// any file that is not a cache is.
			if !errors.Is(err, ErrNotCache) {
				t.Errorf("%s: Open: %v", v.Name, err)
			}
			refused++
			continue
		}
		if d := s.Damage(); d != nil {
			moved++
			if d.Path != path || !strings.HasPrefix(d.MovedTo, path+".damaged-") || d.Err == nil {
				t.Errorf("%s: Damage = %+v", v.Name, d)
			}
			if got, err := os.ReadFile(d.MovedTo); err != nil || !bytes.Equal(got, v.Data) {
				t.Errorf("%s: the damaged file was not kept as it was at %s: %v", v.Name, d.MovedTo, err)
			}
			if !strings.Contains(d.String(), path) || !strings.Contains(d.String(), d.MovedTo) || strings.Contains(d.String(), "\n") {
				t.Errorf("%s: message %q", v.Name, d.String())
			}
		}
		for k, w := range want {
			got, ok, err := s.Get(ctx, k)
			if err != nil && !errors.Is(err, ErrDamaged) {
				t.Errorf("%s: Get(%s): %v", v.Name, k, err)
			}
			if ok && s.Damage() != nil {
				t.Errorf("%s: a fresh file answered %s", v.Name, k)
			}
			_ = got // any bytes: a flipped bit in a value is the cache's to catch
			_ = w
		}
		if err := s.Put(ctx, "https://new.example", []byte("new"), 0); err != nil && !errors.Is(err, ErrDamaged) {
			t.Errorf("%s: Put: %v", v.Name, err)
		}
		_, _ = s.Lease(ctx, "https://new.example", "me", 1e9)
		_, _ = s.Sweep(ctx)
		if err := s.Close(); err != nil {
			t.Errorf("%s: Close: %v", v.Name, err)
		}
	}
	t.Logf("%d moved aside, %d refused as not a cache", moved, refused)
	if moved == 0 {
		t.Error("no damaged file was moved aside")
	}
}

// readMetaBytes reads the meta page bbolt uses from the bytes of a file.
func readMetaBytes(b []byte) (meta, bool, error) {
	f, err := os.CreateTemp("", "meta")
	if err != nil {
		return meta{}, false, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		return meta{}, false, err
	}
	m0, _, err0 := readMeta(f, 0)
	m1, _, err1 := readMeta(f, int64(m0.pageSize))
	if err0 != nil || err1 != nil {
		return meta{}, false, errors.Join(err0, err1)
	}
	if m1.txid > m0.txid {
		return m1, true, nil
	}
	return m0, true, nil
}

// TestHealthyFileKept checks that a healthy file passes the checks whole.
func TestHealthyFileKept(t *testing.T) {
	healthy, want := healthyFile(t)
	path := filepath.Join(t.TempDir(), "cache.db")
	if err := os.WriteFile(path, healthy, 0o600); err != nil {
		t.Fatal(err)
	}
	s := mustOpen(t, path, nil)
	if d := s.Damage(); d != nil {
		t.Fatalf("a healthy file was found damaged: %v", d)
	}
	for k, w := range want {
		if got, ok, err := s.Get(ctx, k); err != nil || !ok || !bytes.Equal(got, w) {
			t.Fatalf("Get(%s) = %d bytes, %v, %v", k, len(got), ok, err)
		}
	}
}

// TestReplaceUnreadable checks that a file that is not a cache is moved
// aside only when asked.
func TestReplaceUnreadable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	notes := []byte(strings.Repeat("my notes\n", 1000))
	if err := os.WriteFile(path, notes, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path, nil); !errors.Is(err, ErrNotCache) {
		t.Fatalf("Open: %v, want ErrNotCache", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, notes) {
		t.Fatal("the file was changed")
	}
	s := mustOpen(t, path, &Options{ReplaceUnreadable: true})
	d := s.Damage()
	if d == nil {
		t.Fatal("no Damage")
	}
	if got, _ := os.ReadFile(d.MovedTo); !bytes.Equal(got, notes) {
		t.Fatalf("the file was not kept at %s", d.MovedTo)
	}
	if err := s.Put(ctx, "https://example.com", []byte("v"), 0); err != nil {
		t.Fatal(err)
	}
}

// TestDamagedWhileOpen cuts the file short under an open store: reading the
// mapped pages past the new end faults (SIGBUS), which the store turns into
// an error instead of a crash, and every later call fails the same way.
func TestDamagedWhileOpen(t *testing.T) {
	healthy, want := healthyFile(t)
	path := filepath.Join(t.TempDir(), "cache.db")
	if err := os.WriteFile(path, healthy, 0o600); err != nil {
		t.Fatal(err)
	}
	s := mustOpen(t, path, nil)
	if err := os.Truncate(path, 8192); err != nil {
		t.Fatal(err)
	}
	var damaged int
	for k := range want {
		_, ok, err := s.Get(ctx, k)
		if err != nil {
			if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), path) {
				t.Fatalf("Get(%s): %v", k, err)
			}
			damaged++
		} else if ok {
			t.Fatalf("Get(%s) found a value in a file cut short", k)
		}
	}
	if damaged == 0 {
		t.Fatal("no call saw the damage")
	}
	if err := s.Put(ctx, "https://example.com", []byte("v"), 0); !errors.Is(err, ErrDamaged) {
		t.Fatalf("Put after damage: %v", err)
	}
}
