// Package boltstore keeps the robots.txt cache in one file on disk, with
// bbolt (go.etcd.io/bbolt), an embedded key/value store: no server to run,
// and every write a transaction that either happened whole or not at all,
// so a crashed or killed process leaves a file that opens cleanly and holds
// every write it finished. It is the default store of the robotstxt command.
//
// One process at a time holds the file: bbolt locks it. A second process, or
// a second Open in the same process, waits Options.LockTimeout (1 s by
// default) and then gets an error that matches ErrLocked, naming the file.
// Package storeopen turns that into a run on memory, with a message.
//
// Values are stored with their expiry, and an expired value is deleted when a
// Get finds it; no goroutine sweeps in the background. Store.Sweep deletes
// every expired value and lease at once, for a program that wants the file
// kept small (robotstxt serve calls it every hour).
//
// Leases (store.Leaser) are kept in the file too, so they follow the same
// rules as Redis leases; since one process holds the file, they order the
// goroutines of that process.
//
// The file holds three buckets: "meta" (the format name, checked on Open, so
// that a file written by something else is refused rather than changed),
// "values" and "leases". Each record is an 8-byte big-endian expiry in Unix
// nanoseconds (0 for none) followed by the value, or the lease owner.
package boltstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/seed53c283f5/robotstxt/store"
)

// Format names the layout of the file this package reads and writes; it is
// stored in the file's meta bucket.
const Format = "robotstxt-cache 1"

var (
	bucketMeta   = []byte("meta")
	bucketValues = []byte("values")
	bucketLeases = []byte("leases")
	keyFormat    = []byte("format")
)

// ErrLocked matches (errors.Is) the error Open returns when another process,
// or another Open in this one, holds the file.
var ErrLocked = errors.New("boltstore: file locked by another process")

// LockedError is the error Open returns when the file stays locked for the
// whole of Options.LockTimeout. It matches ErrLocked.
type LockedError struct {
	Path   string        // the file
	Waited time.Duration // how long Open waited
	Err    error         // bbolt's error
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("boltstore: %s is in use by another process (waited %v for it): "+
		"stop the other robotstxt process using it, or give this one another cache file", e.Path, e.Waited)
}

// Is reports whether target is ErrLocked.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// Unwrap returns bbolt's error.
func (e *LockedError) Unwrap() error { return e.Err }

// Options tune Open. The zero value, or nil, takes the defaults.
type Options struct {
	// LockTimeout is how long Open waits for a file locked by another
	// process (default 1 s). Negative: do not wait at all (one try).
	LockTimeout time.Duration
	// Now is the clock for time to live (default time.Now).
	Now func() time.Time
	// NoSync skips the fsync after each write. Writes are faster; a killed
	// or crashed process still loses nothing it wrote, but a crash of the
	// operating system or a power cut may lose the last writes.
	NoSync bool
	// Mode is the permission of a new file (default 0600); the directories
	// Open creates for it get 0700.
	Mode os.FileMode
	// ReplaceUnreadable moves aside, and replaces with a new cache, a file
	// that is not a cache file at all (not bbolt, another program's bbolt
	// file, another format), as Open always does with a damaged cache
	// file; without it, Open refuses such a file (ErrNotCache) and leaves
	// it as it is. For a file only this program writes, such as the
	// default cache file.
	ReplaceUnreadable bool
}

// Store is a store.Store, store.Leaser and store.Reporter kept in a bbolt
// file. It is safe for concurrent use.
type Store struct {
	db     *bolt.DB
	path   string
	now    func() time.Time
	closed atomic.Bool
	group  writeGroup // Put, Delete and expiry deletions share transactions

	damage  *Damage     // what Open found and moved aside, if anything
	damaged atomic.Bool // a call found the file damaged: fail every call
}

// Damage returns what Open found wrong with the file it was given and moved
// aside, or nil when the file opened cleanly (or was new).
func (s *Store) Damage() *Damage { return s.damage }

var (
	_ store.Store    = (*Store)(nil)
	_ store.Leaser   = (*Store)(nil)
	_ store.Reporter = (*Store)(nil)
)

// Open opens the store in the file at path, creating the file, and the
// directories above it, when missing. opts may be nil.
//
// Open checks the file before use, so that no bytes in it can crash the
// program: that bbolt can read it without going past its end (the file's
// length against the page count in its meta page, every page reachable
// from the root), then bbolt's own consistency check (Tx.Check). A
// damaged file is renamed to path.damaged-TIME (UTC, as 20250601T093000Z),
// a new cache started in its place, and Store.Damage says so. A file that
// is not a cache file is refused with an error matching ErrNotCache, and
// left as it is (see Options.ReplaceUnreadable).
func Open(path string, opts *Options) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Mode == 0 {
		o.Mode = 0o600
	}
	wait := o.LockTimeout
	switch {
	case wait == 0:
		wait = time.Second
	case wait < 0:
		// bbolt waits forever on 0; on a timeout shorter than its retry
		// interval (50ms) it tries once.
		wait = time.Nanosecond
	}
	if path == "" {
		return nil, errors.New("boltstore: no file name")
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("boltstore: %s is a directory, not a cache file", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("boltstore: creating the directory of the cache file: %w", err)
	}
	var damage *Damage
	for attempt := 0; ; attempt++ {
		db, err := openOnce(path, o, wait)
		var de *damagedError
		var nc *notCacheError
		switch {
		case err == nil:
			return &Store{db: db, path: path, now: o.Now, damage: damage}, nil
		case errors.Is(err, errMovedAway) && attempt < 3:
			continue
		case errors.As(err, &nc) && o.ReplaceUnreadable && damage == nil:
			moved, mvErr := moveAside(path, o.Now())
			if mvErr != nil {
				return nil, fmt.Errorf("boltstore: %s %s, and could not be moved aside: %w", path, nc.reason, mvErr)
			}
			damage = &Damage{Path: path, MovedTo: moved, Err: errors.New(nc.reason)}
			continue
		case errors.As(err, &de) && damage == nil:
			// Renamed while still locked, so that no other process
			// takes the damaged file for the cache meanwhile.
			moved, mvErr := moveAside(path, o.Now())
			de.release()
			if mvErr != nil {
				return nil, fmt.Errorf("boltstore: %s is damaged (%v) and could not be moved aside: %w", path, de.err, mvErr)
			}
			damage = &Damage{Path: path, MovedTo: moved, Err: de.err}
			continue
		case errors.As(err, &de):
			de.release()
			return nil, fmt.Errorf("boltstore: %s: a new cache file is damaged too: %v", path, de.err)
		case errors.Is(err, berrors.ErrTimeout):
			waited := wait
			if o.LockTimeout < 0 {
				waited = 0
			}
			return nil, &LockedError{Path: path, Waited: waited, Err: err}
		case errors.As(err, &nc), errors.Is(err, ErrNotCache):
			return nil, err
		default:
			return nil, fmt.Errorf("boltstore: opening %s: %w", path, err)
		}
	}
}

// prepare checks the file's format, writing it and the buckets in a new
// file.
func prepare(tx *bolt.Tx) error {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		empty := true
		_ = tx.ForEach(func([]byte, *bolt.Bucket) error { empty = false; return nil })
		if !empty {
			return &notCacheError{tx.DB().Path(), "is a bbolt file written by another program (it has no robotstxt format record)"}
		}
		var err error
		if meta, err = tx.CreateBucket(bucketMeta); err != nil {
			return err
		}
		if err := meta.Put(keyFormat, []byte(Format)); err != nil {
			return err
		}
	}
	if f := meta.Get(keyFormat); !bytes.Equal(f, []byte(Format)) {
		return &notCacheError{tx.DB().Path(), fmt.Sprintf("is a cache file whose format is %q; this program reads %q", f, Format)}
	}
	for _, name := range [][]byte{bucketValues, bucketLeases} {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	return nil
}

// Path returns the absolute name of the store's file.
func (s *Store) Path() string { return s.path }

// Health implements store.Reporter; Name is "bbolt " and the file's name.
func (s *Store) Health() store.Health { return store.Health{Name: "bbolt " + s.path} }

func (s *Store) check(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := store.CheckKey(key); err != nil {
		return err
	}
	if s.closed.Load() {
		return store.ErrClosed
	}
	return nil
}

// fail turns a bbolt error into the store's.
func (s *Store) fail(op, key string, err error) error {
	if errors.Is(err, berrors.ErrDatabaseNotOpen) || s.closed.Load() {
		return store.ErrClosed
	}
	return fmt.Errorf("boltstore: %s %q in %s: %w", op, key, s.path, err)
}

// expiry is the record's expiry for a ttl from now: 0 for none.
func expiry(now time.Time, ttl time.Duration) int64 {
	if ttl <= 0 {
		return 0
	}
	e := now.Add(ttl)
	if e.Year() >= 2262 || e.Before(now) { // beyond what UnixNano holds
		return math.MaxInt64
	}
	if n := e.UnixNano(); n > 0 {
		return n
	}
	return 1 // before 1970: expired, but not "no expiry"
}

// live reports whether a record that expires at exp (0: never) is still
// live at now.
func live(exp int64, now time.Time) bool {
	return exp == 0 || now.UnixNano() < exp
}

func record(exp int64, body []byte) []byte {
	r := make([]byte, 8+len(body))
	binary.BigEndian.PutUint64(r, uint64(exp))
	copy(r[8:], body)
	return r
}

// split splits a record into expiry and body; ok is false for a record too
// short to be one.
func split(r []byte) (exp int64, body []byte, ok bool) {
	if len(r) < 8 {
		return 0, nil, false
	}
	return int64(binary.BigEndian.Uint64(r)), r[8:], true
}

// Get implements store.Store. An expired value is deleted.
func (s *Store) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if err := s.check(ctx, key); err != nil {
		return nil, false, err
	}
	now := s.now()
	var value []byte
	var found, stale bool
	err := s.view(func(tx *bolt.Tx) error {
		r := tx.Bucket(bucketValues).Get([]byte(key))
		if r == nil {
			return nil
		}
		exp, body, ok := split(r)
		if !ok || !live(exp, now) {
			stale = true
			return nil
		}
		found = true
		value = append(make([]byte, 0, len(body)), body...)
		return nil
	})
	if err != nil {
		return nil, false, s.fail("reading", key, err)
	}
	if stale {
		if err := s.deleteStale(bucketValues, key, now); err != nil {
			return nil, false, s.fail("deleting expired", key, err)
		}
	}
	return value, found, nil
}

// deleteStale deletes key from bucket if it is still expired at now (a
// writer may have replaced it since it was read).
func (s *Store) deleteStale(bucket []byte, key string, now time.Time) error {
	return s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucket)
		r := b.Get([]byte(key))
		if r == nil {
			return nil
		}
		if exp, _, ok := split(r); ok && live(exp, now) {
			return nil
		}
		return b.Delete([]byte(key))
	})
}

// Put implements store.Store.
func (s *Store) Put(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if err := s.check(ctx, key); err != nil {
		return err
	}
	r := record(expiry(s.now(), ttl), value)
	err := s.update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketValues).Put([]byte(key), r)
	})
	if err != nil {
		return s.fail("writing", key, err)
	}
	return nil
}

// Delete implements store.Store.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := s.check(ctx, key); err != nil {
		return err
	}
	err := s.update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketValues).Delete([]byte(key))
	})
	if err != nil {
		return s.fail("deleting", key, err)
	}
	return nil
}

// Lease implements store.Leaser.
func (s *Store) Lease(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	if err := s.check(ctx, key); err != nil {
		return false, err
	}
	if err := store.CheckLease(key, owner, ttl); err != nil {
		return false, err
	}
	now := s.now()
	var got bool
	err := s.updateAlone(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketLeases)
		if exp, holder, ok := split(b.Get([]byte(key))); ok && live(exp, now) && string(holder) != owner {
			return nil
		}
		got = true
		return b.Put([]byte(key), record(expiry(now, ttl), []byte(owner)))
	})
	if err != nil {
		return false, s.fail("leasing", key, err)
	}
	return got, nil
}

// Release implements store.Leaser.
func (s *Store) Release(ctx context.Context, key, owner string) error {
	if err := s.check(ctx, key); err != nil {
		return err
	}
	if err := store.CheckRelease(key, owner); err != nil {
		return err
	}
	err := s.updateAlone(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketLeases)
		if _, holder, ok := split(b.Get([]byte(key))); ok && string(holder) == owner {
			return b.Delete([]byte(key))
		}
		return nil
	})
	if err != nil {
		return s.fail("releasing the lease on", key, err)
	}
	return nil
}

// sweepBatch is how many records one transaction of Sweep deletes at most,
// so that other writers wait only briefly.
const sweepBatch = 1000

// Sweep deletes every expired value and lease, and returns how many it
// deleted. It works in transactions of at most a thousand deletions, so other
// operations go on meanwhile; it stops early, with the context's error, when
// ctx is done.
func (s *Store) Sweep(ctx context.Context) (int, error) {
	if s.closed.Load() {
		return 0, store.ErrClosed
	}
	total := 0
	for _, bucket := range [][]byte{bucketValues, bucketLeases} {
		var from []byte
		for {
			if err := ctx.Err(); err != nil {
				return total, err
			}
			now := s.now()
			var n int
			var next []byte
			err := s.updateAlone(func(tx *bolt.Tx) error {
				var stale [][]byte
				c := tx.Bucket(bucket).Cursor()
				k, r := c.First()
				if from != nil {
					k, r = c.Seek(from)
				}
				for ; k != nil; k, r = c.Next() {
					if len(stale) == sweepBatch {
						next = append([]byte(nil), k...)
						break
					}
					if exp, _, ok := split(r); !ok || !live(exp, now) {
						stale = append(stale, append([]byte(nil), k...))
					}
				}
				for _, k := range stale {
					if err := tx.Bucket(bucket).Delete(k); err != nil {
						return err
					}
				}
				n = len(stale)
				return nil
			})
			if err != nil {
				return total, s.fail("sweeping", string(bucket), err)
			}
			total += n
			if next == nil {
				break
			}
			from = next
		}
	}
	return total, nil
}

// Close implements store.Store: it closes the file, letting another process
// open it. Closing a closed store does nothing.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("boltstore: closing %s: %w", s.path, err)
	}
	return nil
}

// Apply implements store.Batcher: every op in one bbolt transaction (one
// Update), so that a crash keeps all of them or none.
func (s *Store) Apply(ctx context.Context, ops []store.Op) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.closed.Load() {
		return store.ErrClosed
	}
	if err := store.CheckOps(ops); err != nil {
		return err
	}
	if len(ops) == 0 {
		return nil
	}
	now := s.now()
	recs := make([][]byte, len(ops))
	for i, op := range ops {
		if !op.Delete {
			recs[i] = record(expiry(now, op.TTL), op.Value)
		}
	}
	err := s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketValues)
		for i, op := range ops {
			var err error
			if op.Delete {
				err = b.Delete([]byte(op.Key))
			} else {
				err = b.Put([]byte(op.Key), recs[i])
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return s.fail("writing a batch of", ops[0].Key, err)
	}
	return nil
}

// Scan implements store.Batcher: a cursor over the keys from prefix on.
func (s *Store) Scan(ctx context.Context, prefix string, limit int) ([]store.Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.closed.Load() {
		return nil, store.ErrClosed
	}
	now := s.now()
	var out []store.Entry
	err := s.view(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketValues).Cursor()
		p := []byte(prefix)
		for k, r := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, r = c.Next() {
			exp, body, ok := split(r)
			if !ok || !live(exp, now) {
				continue
			}
			out = append(out, store.Entry{Key: string(k), Value: append([]byte(nil), body...)})
			if limit > 0 && len(out) >= limit {
				break
			}
		}
		return nil
	})
	if err != nil {
		return nil, s.fail("listing the keys of prefix", prefix, err)
	}
	return out, nil
}
