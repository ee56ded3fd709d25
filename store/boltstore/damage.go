package boltstore

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
)

// ErrNotCache matches (errors.Is) the error Open returns for a file that is
// not a cache file: not a bbolt file at all, a bbolt file of another
// program, or a cache of another format. Open leaves such a file as it is.
var ErrNotCache = errors.New("boltstore: not a cache file")

// ErrDamaged is wrapped by the error of a call that found the file damaged
// while the store was in use (bbolt panicked, or reading the mapped file
// faulted). The store then fails every call with it; the next Open moves
// the file aside.
var ErrDamaged = errors.New("damaged file")

// Damage is what Open found wrong with a cache file that it moved aside,
// starting a new, empty cache in its place.
type Damage struct {
	Path    string // the cache file, now new
	MovedTo string // the damaged file, kept as it was found
	Err     error  // what was wrong with it
}

// String says what happened in one line, for the user.
func (d *Damage) String() string {
	return fmt.Sprintf("cache file %s was damaged (%v); moved it to %s and started a new cache", d.Path, d.Err, d.MovedTo)
}

// damagedError is openOnce's error for a damaged file: Open moves the file
// aside while f or db still holds its lock, then closes them.
type damagedError struct {
	err error
	f   *os.File // the locked file, before bbolt opened it
	db  *bolt.DB // or bbolt's handle on it
}

func (e *damagedError) Error() string { return e.err.Error() }

// release closes the damaged file.
func (e *damagedError) release() {
	if e.db != nil {
		_ = e.db.Close()
	} else if e.f != nil {
		_ = e.f.Close()
	}
}

// errMovedAway is openOnce's error when the file it locked is no longer at
// path: another process moved it aside meanwhile. Open tries again.
var errMovedAway = errors.New("boltstore: the file was moved away while opening it")

// notCacheError is the error Open returns for a file that is not a cache.
type notCacheError struct {
	path   string
	reason string // "is not a bbolt file", ...
}

func (e *notCacheError) Error() string {
	return fmt.Sprintf("boltstore: %s %s: it is not a robots.txt cache file; choose another cache file", e.path, e.reason)
}

func (e *notCacheError) Is(target error) bool { return target == ErrNotCache }

// openOnce opens path with bbolt once it has locked and checked it (see
// verifyFile), then runs bbolt's consistency check and prepares the
// buckets. A damaged file comes back as a *damagedError.
func openOnce(path string, o Options, wait time.Duration) (db *bolt.DB, err error) {
	var file *os.File
	openFile := func(name string, flag int, mode os.FileMode) (*os.File, error) {
		f, err := os.OpenFile(name, flag, mode)
		if err != nil {
			return nil, err
		}
		if err := lockFile(f, wait); err != nil {
			_ = f.Close()
			return nil, err
		}
		if same, err := stillAt(f, name); err != nil || !same {
			_ = f.Close()
			return nil, errMovedAway
		}
		if err := verifyFile(f); err != nil {
			if errors.Is(err, errNoMeta) {
				_ = f.Close()
				return nil, &notCacheError{path, "is not a bbolt file"}
			}
			return nil, &damagedError{err: err, f: f}
		}
		file = f
		return f, nil
	}
	// With the checks above bbolt should neither panic nor fault; should it
	// all the same, the file is damaged in a way they missed.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			db, err = nil, &damagedError{err: fmt.Errorf("bbolt failed reading it: %v", r), f: file, db: db}
		}
	}()
	db, err = bolt.Open(path, o.Mode, &bolt.Options{Timeout: wait, NoSync: o.NoSync, NoGrowSync: o.NoSync, OpenFile: openFile})
	if err != nil {
		return nil, err
	}
	if err := check(db); err != nil {
		return nil, &damagedError{err: err, db: db}
	}
	if err := db.Update(prepare); err != nil {
		_ = db.Close()
		var nc *notCacheError
		if errors.As(err, &nc) {
			return nil, err
		}
		return nil, fmt.Errorf("boltstore: %s: %w", path, err)
	}
	return db, nil
}

// check runs bbolt's consistency check, returning its first finding.
func check(db *bolt.DB) error {
	var first error
	n := 0
	err := db.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			if first == nil {
				first = err
			}
			n++
		}
		return nil
	})
	switch {
	case err != nil:
		return err
	case n > 1:
		return fmt.Errorf("%v, and %d more problems", first, n-1)
	}
	return first
}

// stillAt reports whether the open file f is the file at path.
func stillAt(f *os.File, path string) (bool, error) {
	a, err := f.Stat()
	if err != nil {
		return false, err
	}
	b, err := os.Stat(path)
	if err != nil {
		return false, err
	}
	return os.SameFile(a, b), nil
}

// moveAside renames the file at path to path.damaged-TIME, adding -2, -3
// ... when that name is taken, and returns the new name.
func moveAside(path string, now time.Time) (string, error) {
	base := path + ".damaged-" + now.UTC().Format("20060102T150405Z")
	to := base
	for i := 2; ; i++ {
		if _, err := os.Lstat(to); errors.Is(err, os.ErrNotExist) {
			break
		}
		if i > 1000 {
			return "", fmt.Errorf("no free name for the damaged file beside %s", path)
		}
		to = base + "-" + strconv.Itoa(i)
	}
	if err := os.Rename(path, to); err != nil {
		return "", err
	}
	return to, nil
}

// protect runs fn, turning a panic in bbolt, or a fault reading the mapped
// file, into an error matching ErrDamaged; the store then fails every call
// with it.
func (s *Store) protect(fn func() error) (err error) {
	if s.damaged.Load() {
		return fmt.Errorf("%w, found earlier", ErrDamaged)
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			s.damaged.Store(true)
			err = fmt.Errorf("%w (%v)", ErrDamaged, r)
		}
	}()
	return fn()
}

// view runs fn in a read transaction, protected.
func (s *Store) view(fn func(tx *bolt.Tx) error) error {
	return s.protect(func() error { return s.db.View(fn) })
}

// updateAlone runs fn in a read-write transaction of its own, protected.
func (s *Store) updateAlone(fn func(tx *bolt.Tx) error) error {
	return s.protect(func() error { return s.db.Update(fn) })
}
