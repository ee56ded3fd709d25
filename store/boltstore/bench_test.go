package boltstore

import (
	"path/filepath"
	"strconv"
	"testing"
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
