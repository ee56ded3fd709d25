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
	"fmt"
	"time"
)

// Store keeps values by key. Implementations are safe for concurrent use.
//
// Every method fails with the context's error when ctx is already done, with
// ErrClosed after Close, and with an error wrapping ErrInvalidKey for a key
// that is empty or longer than MaxKeyLen bytes. Values may be empty and may
// hold any bytes: an empty value stored is found (ok is true), unlike a
// missing one.
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
//
// Leases live beside values, not among them: taking, renewing or releasing
// the lease on a key never changes the value stored under that key, and
// Delete does not release a lease. Owners follow the rules of keys (1 to
// MaxKeyLen bytes).
type Leaser interface {
	// Lease tries to take the lease on key for owner, for ttl, which must
	// be positive. It reports whether owner now holds it: true when nobody
	// held it, when the last holder's ttl has passed, or when owner already
	// held it (the lease is then renewed for ttl from now); false when
	// another owner holds it.
	Lease(ctx context.Context, key, owner string, ttl time.Duration) (bool, error)
	// Release gives the lease up if owner holds it; when another owner
	// holds it, or nobody does, Release changes nothing and returns nil.
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

// ErrRefused is matched (errors.Is) by the error of a store whose server
// answers but refuses it: authentication failed, permission denied, or the
// database asked for does not exist. Unlike a server that cannot be
// reached, waiting does not help: the configuration must change.
var ErrRefused = errors.New("refused by the server")

// ErrClosed is returned by a store used after Close.
var ErrClosed = errors.New("store: closed")

// MaxKeyLen is the longest key, in bytes, that every store accepts. Origins
// are far shorter: a host name has at most 253 bytes.
const MaxKeyLen = 4096

// ErrInvalidKey is wrapped by the error a store returns for an empty key or
// owner, or one longer than MaxKeyLen bytes.
var ErrInvalidKey = errors.New("invalid key")

// CheckKey returns an error wrapping ErrInvalidKey when key is empty or longer
// than MaxKeyLen bytes, and nil otherwise. Implementations of Store call it
// first.
func CheckKey(key string) error {
	switch {
	case key == "":
		return fmt.Errorf("store: %w: empty", ErrInvalidKey)
	case len(key) > MaxKeyLen:
		return fmt.Errorf("store: %w: %d bytes, more than %d", ErrInvalidKey, len(key), MaxKeyLen)
	}
	return nil
}

// ErrInvalidTTL is wrapped by the error Lease returns for a ttl that is not
// positive.
var ErrInvalidTTL = errors.New("invalid lease ttl")

// CheckLease checks the arguments of Leaser.Lease: key and owner with
// CheckKey, and ttl, which must be positive (ErrInvalidTTL).
func CheckLease(key, owner string, ttl time.Duration) error {
	if err := CheckKey(key); err != nil {
		return err
	}
	if err := checkOwner(owner); err != nil {
		return err
	}
	if ttl <= 0 {
		return fmt.Errorf("store: %w: %v", ErrInvalidTTL, ttl)
	}
	return nil
}

// CheckRelease checks the arguments of Leaser.Release with CheckKey.
func CheckRelease(key, owner string) error {
	if err := CheckKey(key); err != nil {
		return err
	}
	return checkOwner(owner)
}

func checkOwner(owner string) error {
	if err := CheckKey(owner); err != nil {
		return fmt.Errorf("%w (lease owner)", err)
	}
	return nil
}

// Op is one write of Batcher.Apply: a Put of Value under Key, for TTL (0
// or less: no limit), or, with Delete, a Delete of Key.
type Op struct {
	Key    string
	Value  []byte
	TTL    time.Duration
	Delete bool
}

// Entry is a key and its value, as Batcher.Scan returns them.
type Entry struct {
	Key   string
	Value []byte
}

// MaxBatch is the most operations one Apply takes.
const MaxBatch = 64

// ErrNoBatch is matched (errors.Is) by the error of an Apply that the
// store cannot make in one transaction (the keys of a Redis Cluster live
// on different masters). Nothing was written: the caller writes the keys
// one by one, in the order that loses least.
var ErrNoBatch = errors.New("store: these keys cannot be written in one transaction")

// Batcher is implemented by stores that write several keys in one
// transaction and list keys by prefix: the watch engine writes an alert
// with the state that made it, so that neither is kept without the other.
type Batcher interface {
	// Apply makes ops, in order, in one transaction: when it returns nil
	// every op was made; when it returns an error, none was, or (a
	// connection lost while the store answered) all were or none. It
	// checks every key first (CheckKey) and refuses more than MaxBatch
	// ops.
	Apply(ctx context.Context, ops []Op) error
	// Scan returns the live keys that start with prefix, with their
	// values, in byte order of the keys, at most limit of them (0 or
	// less: no limit). It is for small sets of keys (an outbox): it may
	// read every key of the store.
	Scan(ctx context.Context, prefix string, limit int) ([]Entry, error)
}

// CheckOps checks the arguments of Batcher.Apply: every key with
// CheckKey, and at most MaxBatch ops.
func CheckOps(ops []Op) error {
	if len(ops) > MaxBatch {
		return fmt.Errorf("store: %d operations in one batch, more than %d", len(ops), MaxBatch)
	}
	for _, op := range ops {
		if err := CheckKey(op.Key); err != nil {
			return err
		}
	}
	return nil
}
