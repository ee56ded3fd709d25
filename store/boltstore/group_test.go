package boltstore

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// TestGroupCommit writes from many goroutines at once, with fsync on, and
// checks that every write landed, that writes shared transactions, and that
// a write that fails inside a shared transaction fails alone.
func TestGroupCommit(t *testing.T) {
	s := mustOpen(t, filepath.Join(t.TempDir(), "cache.db"), nil)
	ctx := context.Background()
	const writers, each = 16, 25
	bad := errors.New("this write fails")
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				key := fmt.Sprintf("https://w%d-%d.example", g, i)
				if err := s.Put(ctx, key, []byte(key), 0); err != nil {
					errs <- err
				}
				if g == 0 && i%5 == 0 {
					err := s.update(func(*bolt.Tx) error { return bad })
					if !errors.Is(err, bad) {
						errs <- fmt.Errorf("failing write returned %v, want %v", err, bad)
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for g := range writers {
		for i := range each {
			key := fmt.Sprintf("https://w%d-%d.example", g, i)
			if v, ok := get(t, s, key); !ok || v != key {
				t.Fatalf("%s: got %q, %v after the writes", key, v, ok)
			}
		}
	}
	// Fewer batches than writes means writes shared transactions.
	writes := int64(writers*each + each/5)
	batches := s.group.commits.Load()
	t.Logf("%d writes in %d batches", writes, batches)
	if batches >= writes {
		t.Errorf("%d writes took %d batches: none were grouped", writes, batches)
	}
}
