package boltstore

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// BenchmarkPut measures a write committed with fsync (the default).
func BenchmarkPut(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), "cache.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	v := make([]byte, 2000)
	for i := 0; b.Loop(); i++ {
		if err := s.Put(ctx, "https://site"+strconv.Itoa(i)+".example", v, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGet measures a read of a 2 KB value.
func BenchmarkGet(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), "cache.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if err := s.Put(ctx, "https://example.com", make([]byte, 2000), 0); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, ok, err := s.Get(ctx, "https://example.com"); err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
}

// cacheFile writes a cache file of n entries of 1.5 to 4.5 KB (a robots.txt
// and its trace) and returns its name.
func cacheFile(b *testing.B, n int) string {
	path := filepath.Join(b.TempDir(), "cache.db")
	s, err := Open(path, &Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n; i += 1000 {
		if err := s.db.Update(func(tx *bolt.Tx) error {
			for j := i; j < min(n, i+1000); j++ {
				k := "https://site-" + strconv.Itoa(j) + ".example"
				if err := tx.Bucket(bucketValues).Put([]byte(k), record(0, make([]byte, 1500+(j*7919)%3000))); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkOpen measures Open on caches of 1,000 to 100,000 origins: the
// checks before use (verifyFile reads every page in use; Tx.Check walks
// them again) are most of its cost. Sub-benchmarks time each check alone.
func BenchmarkOpen(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		path := cacheFile(b, n)
		fi, _ := os.Stat(path)
		b.Run(fmt.Sprintf("origins=%d/MB=%d", n, fi.Size()>>20), func(b *testing.B) {
			for b.Loop() {
				s, err := Open(path, &Options{NoSync: true})
				if err != nil || s.Damage() != nil {
					b.Fatal(err, s.Damage())
				}
				s.Close()
			}
		})
		b.Run(fmt.Sprintf("origins=%d/verify", n), func(b *testing.B) {
			f, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			for b.Loop() {
				if err := verifyFile(f); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("origins=%d/txcheck", n), func(b *testing.B) {
			db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			for b.Loop() {
				if err := check(db); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
