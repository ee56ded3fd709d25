package boltstore_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/seed53c283f5/robotstxt/store/boltstore"
)

func ExampleOpen() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "robotstxt", "cache.db")

	s, err := boltstore.Open(path, nil)
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	_ = s.Put(ctx, "https://example.com", []byte("an encoded cache entry"), 24*time.Hour)

	// A second Open of the same file waits briefly, then says it is in use.
	_, err = boltstore.Open(path, &boltstore.Options{LockTimeout: 100 * time.Millisecond})
	fmt.Println(errors.Is(err, boltstore.ErrLocked))

	// Closed and opened again, the store still holds the entry.
	s.Close()
	s, err = boltstore.Open(path, nil)
	if err != nil {
		panic(err)
	}
	defer s.Close()
	v, ok, _ := s.Get(ctx, "https://example.com")
	fmt.Printf("%q %v\n", v, ok)
	// Output:
	// true
	// "an encoded cache entry" true
}
