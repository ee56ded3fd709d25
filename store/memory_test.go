package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/storetest"
)

func TestMemoryConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, now func() time.Time) store.Store {
		return store.NewMemory(&store.MemoryOptions{Now: now})
	}, nil)
}

func TestFallbackConformance(t *testing.T) {
	t.Run("PrimaryUp", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T, now func() time.Time) store.Store {
			return store.NewFallback(store.NewMemory(&store.MemoryOptions{Now: now}), &store.FallbackOptions{Now: now})
		}, nil)
	})
	t.Run("PrimaryDown", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T, now func() time.Time) store.Store {
			return store.NewFallback(down{}, &store.FallbackOptions{Now: now})
		}, nil)
	})
}

// down is a primary that never answers.
type down struct{}

var errDown = errors.New("dial tcp 127.0.0.1:1: connect: connection refused")

func (down) Get(context.Context, string) ([]byte, bool, error)        { return nil, false, errDown }
func (down) Put(context.Context, string, []byte, time.Duration) error { return errDown }
func (down) Delete(context.Context, string) error                     { return errDown }
func (down) Lease(context.Context, string, string, time.Duration) (bool, error) {
	return false, errDown
}
func (down) Release(context.Context, string, string) error { return errDown }
func (down) Close() error                                  { return nil }
