package boltstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/storetest"
)

var ctx = context.Background()

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, now func() time.Time) store.Store {
		s, err := Open(filepath.Join(t.TempDir(), "cache.db"), &Options{Now: now, NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}, nil)
}

func newClock() *storetest.Clock {
	return storetest.NewClock(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
}

func mustOpen(t *testing.T, path string, opts *Options) *Store {
	t.Helper()
	s, err := Open(path, opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func get(t *testing.T, s *Store, key string) (string, bool) {
	t.Helper()
	v, ok, err := s.Get(ctx, key)
	if err != nil {
		t.Fatalf("Get(%q): %v", key, err)
	}
	return string(v), ok
}

// records counts the records in a bucket of the file.
func records(t *testing.T, s *Store, bucket []byte) int {
	t.Helper()
	n := 0
	if err := s.db.View(func(tx *bolt.Tx) error {
		n = tx.Bucket(bucket).Stats().KeyN
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestPersistsAcrossOpens(t *testing.T) {
	c := newClock()
	path := filepath.Join(t.TempDir(), "a", "b", "cache.db") // directories made by Open
	s := mustOpen(t, path, &Options{Now: c.Now})
	if err := s.Put(ctx, "https://example.com", []byte("kept"), time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, "https://forever.example", []byte("f"), 0); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Lease(ctx, "https://example.com", "me", time.Minute); err != nil || !ok {
		t.Fatalf("Lease = %v, %v", ok, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("the file's mode is %v, want 0600", fi.Mode().Perm())
	}

	s = mustOpen(t, path, &Options{Now: c.Now})
	if v, ok := get(t, s, "https://example.com"); !ok || v != "kept" {
		t.Fatalf("after reopening: %q, %v", v, ok)
	}
	if ok, _ := s.Lease(ctx, "https://example.com", "you", time.Minute); ok {
		t.Fatal("a lease was lost on reopening")
	}
	c.Advance(time.Hour)
	if _, ok := get(t, s, "https://example.com"); ok {
		t.Fatal("the expiry was lost on reopening")
	}
	if v, ok := get(t, s, "https://forever.example"); !ok || v != "f" {
		t.Fatalf("after reopening: %q, %v", v, ok)
	}
	if h := s.Health(); h.Name != "bbolt "+path || h.Degraded {
		t.Fatalf("Health = %+v", h)
	}
	if s.Path() != path {
		t.Fatalf("Path = %q", s.Path())
	}
}

func TestExpiredDeletedOnRead(t *testing.T) {
	c := newClock()
	s := mustOpen(t, filepath.Join(t.TempDir(), "cache.db"), &Options{Now: c.Now, NoSync: true})
	for _, k := range []string{"https://a.example", "https://b.example"} {
		if err := s.Put(ctx, k, []byte("v"), time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	c.Advance(time.Minute)
	if n := records(t, s, bucketValues); n != 2 {
		t.Fatalf("%d records before reading, want 2", n)
	}
	if _, ok := get(t, s, "https://a.example"); ok {
		t.Fatal("an expired value was returned")
	}
	if n := records(t, s, bucketValues); n != 1 {
		t.Fatalf("%d records after reading an expired one, want 1: it was not deleted", n)
	}
}

func TestSweep(t *testing.T) {
	c := newClock()
	s := mustOpen(t, filepath.Join(t.TempDir(), "cache.db"), &Options{Now: c.Now, NoSync: true})
	const n = 2500 // more than two batches
	for i := range n {
		ttl := time.Minute
		if i%5 == 0 {
			ttl = time.Hour
		}
		if err := s.Put(ctx, "https://"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+time.Duration(i).String()+".example", []byte("v"), ttl); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 10 {
		if _, err := s.Lease(ctx, "https://lease"+time.Duration(i).String(), "me", time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Lease(ctx, "https://held", "me", time.Hour); err != nil {
		t.Fatal(err)
	}
	c.Advance(time.Minute)
	got, err := s.Sweep(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := n - n/5 + 10; got != want {
		t.Fatalf("Sweep deleted %d records, want %d", got, want)
	}
	if r := records(t, s, bucketValues); r != n/5 {
		t.Fatalf("%d values left, want %d", r, n/5)
	}
	if r := records(t, s, bucketLeases); r != 1 {
		t.Fatalf("%d leases left, want 1", r)
	}
	if got, err := s.Sweep(ctx); err != nil || got != 0 {
		t.Fatalf("second Sweep = %d, %v; want 0, nil", got, err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Sweep(cctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Sweep with a cancelled context: %v", err)
	}
	s.Close()
	if _, err := s.Sweep(ctx); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("Sweep after Close: %v", err)
	}
}

func TestLockedInProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	first := mustOpen(t, path, nil)
	_, err := Open(path, &Options{LockTimeout: 100 * time.Millisecond})
	checkLocked(t, err, path, 100*time.Millisecond)
	_, err = Open(path, &Options{LockTimeout: -1})
	checkLocked(t, err, path, 0)
	// Once the first lets go, the file opens.
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	mustOpen(t, path, &Options{LockTimeout: 100 * time.Millisecond})
}

func checkLocked(t *testing.T, err error, path string, waited time.Duration) {
	t.Helper()
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("Open of a locked file: error %v, want ErrLocked", err)
	}
	if !errors.Is(err, berrors.ErrTimeout) {
		t.Errorf("the error does not wrap bbolt's: %v", err)
	}
	var le *LockedError
	if !errors.As(err, &le) || le.Path != path || le.Waited != waited {
		t.Fatalf("error %#v, want a *LockedError for %s, waited %v", err, path, waited)
	}
	if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, "in use by another process") {
		t.Errorf("the message does not say which file or why: %q", msg)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, []byte(strings.Repeat("not a bbolt file\n", 2000)), 0o600); err != nil {
		t.Fatal(err)
	}
	short := filepath.Join(dir, "short.db")
	if err := os.WriteFile(short, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A bbolt file written by another program.
	foreign := filepath.Join(dir, "foreign.db")
	db, err := bolt.Open(foreign, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("theirs")); return err }); err != nil {
		t.Fatal(err)
	}
	db.Close()
	// One written by a later version of this package.
	later := filepath.Join(dir, "later.db")
	s := mustOpen(t, later, nil)
	if err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keyFormat, []byte("robotstxt-cache 2"))
	}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	blocked := filepath.Join(dir, "file")
	if err := os.WriteFile(blocked, nil, 0o600); err != nil {
		t.Fatal(err)
	}

	for _, tt := range []struct {
		name, path, want string
	}{
		{"garbage", garbage, "is not a bbolt file"},
		{"short", short, short},
		{"foreign", foreign, "written by another program"},
		{"later", later, `format is "robotstxt-cache 2"`},
		{"directory", dir, "is a directory"},
		{"parent is a file", filepath.Join(blocked, "cache.db"), "directory of the cache file"},
		{"empty name", "", "no file name"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Open(tt.path, &Options{LockTimeout: -1})
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "boltstore: ") {
				t.Fatalf("error %q, want one with %q", err, tt.want)
			}
			if errors.Is(err, ErrLocked) {
				t.Fatalf("error %q matches ErrLocked", err)
			}
			// A file that is not a cache is someone's: never advise removing it.
			if strings.Contains(err.Error(), "remove") {
				t.Fatalf("error %q advises removing the file", err)
			}
			if notCache := tt.name == "garbage" || tt.name == "short" || tt.name == "foreign" || tt.name == "later"; notCache != errors.Is(err, ErrNotCache) {
				t.Fatalf("error %q: errors.Is(err, ErrNotCache) = %v", err, !notCache)
			}
		})
	}
	// The file another program wrote is left as it was.
	db, err = bolt.Open(foreign, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.View(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketMeta) != nil || tx.Bucket([]byte("theirs")) == nil {
			return errors.New("changed")
		}
		return nil
	}); err != nil {
		t.Fatal("a foreign bbolt file was changed")
	}
}

func TestExpiry(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		ttl  time.Duration
		want int64
	}{
		{0, 0},
		{-time.Second, 0},
		{time.Nanosecond, now.UnixNano() + 1},
		{time.Hour, now.Add(time.Hour).UnixNano()},
		{1<<63 - 1, 1<<63 - 1},
	} {
		if got := expiry(now, tt.ttl); got != tt.want {
			t.Errorf("expiry(%v) = %d, want %d", tt.ttl, got, tt.want)
		}
	}
	if got := expiry(time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC), time.Hour); got != 1 {
		t.Errorf("an expiry before 1970 = %d, want 1", got)
	}
	if live(1, now) || !live(0, now) || !live(1<<63-1, now) {
		t.Error("live is wrong")
	}
}

func TestCorruptRecordIsAMiss(t *testing.T) {
	s := mustOpen(t, filepath.Join(t.TempDir(), "cache.db"), &Options{NoSync: true})
	if err := s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketValues).Put([]byte("https://short.example"), []byte("abc")); err != nil {
			return err
		}
		return tx.Bucket(bucketLeases).Put([]byte("https://short.example"), []byte("abc"))
	}); err != nil {
		t.Fatal(err)
	}
	if _, ok := get(t, s, "https://short.example"); ok {
		t.Fatal("a record too short to hold an expiry was returned")
	}
	if n := records(t, s, bucketValues); n != 0 {
		t.Fatal("the broken record was kept")
	}
	if ok, err := s.Lease(ctx, "https://short.example", "me", time.Minute); err != nil || !ok {
		t.Fatalf("Lease over a broken record = %v, %v", ok, err)
	}
}
