// Package store keeps the robots.txt cache's entries, one per origin, behind
// one small interface with three implementations: in memory (bounded, least
// recently used first out), in a bbolt file (the embedded default, which
// survives restarts and crashes) and in Redis (one cache shared by a fleet of
// crawler processes).
//
// A store holds opaque values: the cache decides their encoding, so a store
// never needs to change when the cache's entry gains a field. Keys are origins
// as the fetch package writes them ("https://example.com",
// "http://example.com:8080").
package store

import (
	"context"
	"errors"
	"time"
)

// Store keeps values by key. Implementations are safe for concurrent use.
type Store interface {
	// Get returns the value stored under key. ok is false when there is
	// none, or when its time to live has passed. The returned slice belongs
	// to the caller.
	Get(ctx context.Context, key string) (value []byte, ok bool, err error)
	// Put stores value under key, replacing any value there. The store may
	// forget it after ttl; a ttl of 0 or less means no limit. The store
	// copies value: the caller may reuse it.
	Put(ctx context.Context, key string, value []byte, ttl time.Duration) error
	// Delete removes key. Deleting a missing key is not an error.
	Delete(ctx context.Context, key string) error
	// Close releases the store's resources. Using a store after Close
	// returns ErrClosed.
	Close() error
}

// Leaser is implemented by stores shared between processes, so that a fleet
// of crawlers can agree that one of them fetches an origin while the others
// wait for the result. A lease is held by an owner (a name unique to the
// process) for at most ttl.
type Leaser interface {
	// Lease tries to take the lease on key for owner. It reports whether
	// owner now holds it; an owner that already holds the lease renews it.
	Lease(ctx context.Context, key, owner string, ttl time.Duration) (bool, error)
	// Release gives the lease up if owner holds it.
	Release(ctx context.Context, key, owner string) error
}

// Health is what a store says about itself: the service exports it and the
// CLI prints it.
type Health struct {
	// Name says which store this is: "memory", "bbolt /path/file.db",
	// "redis 127.0.0.1:6379".
	Name string
	// Degraded is true when the store is not the one asked for, or is
	// answering from a fallback (Redis unreachable, a bbolt file locked by
	// another process).
	Degraded bool
	// Message says why, in one line, when Degraded is true.
	Message string
}

// Reporter is implemented by stores that can say how they are.
type Reporter interface {
	Health() Health
}

// ErrClosed is returned by a store used after Close.
var ErrClosed = errors.New("store: closed")
