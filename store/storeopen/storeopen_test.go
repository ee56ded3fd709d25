package storeopen

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/internal/redistest"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/boltstore"
)

var ctx = context.Background()

func mustOpen(t *testing.T, spec string, opts *Options) store.Store {
	t.Helper()
	s, err := Open(spec, opts)
	if err != nil {
		t.Fatalf("Open(%q): %v", spec, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// works checks that s keeps a value.
func works(t *testing.T, s store.Store) {
	t.Helper()
	if err := s.Put(ctx, "https://example.com", []byte("v"), time.Hour); err != nil {
		t.Fatalf("Put: %v", err)
	}
	if v, ok, err := s.Get(ctx, "https://example.com"); err != nil || !ok || string(v) != "v" {
		t.Fatalf("Get = %q, %v, %v", v, ok, err)
	}
}

func TestMemory(t *testing.T) {
	s := mustOpen(t, "memory", &Options{Memory: &store.MemoryOptions{MaxEntries: 1}})
	m, ok := s.(*store.Memory)
	if !ok {
		t.Fatalf("Open(memory) = %T", s)
	}
	works(t, s)
	_ = s.Put(ctx, "https://other.example", []byte("o"), 0)
	if m.Len() != 1 {
		t.Fatalf("the memory bound was not applied: %d entries", m.Len())
	}
	if h := Health(s); h != (store.Health{Name: "memory"}) {
		t.Fatalf("Health = %+v", h)
	}
}

func TestFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "deep", "er", "cache.db")
	s := mustOpen(t, path, nil)
	if _, ok := s.(*boltstore.Store); !ok {
		t.Fatalf("Open(a path) = %T", s)
	}
	works(t, s)
	if h := Health(s); h.Name != "bbolt "+path || h.Degraded {
		t.Fatalf("Health = %+v", h)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	// A relative path is a file too, even one with a colon.
	t.Chdir(t.TempDir())
	s = mustOpen(t, "c:ache.db", nil)
	works(t, s)
	if _, err := os.Stat("c:ache.db"); err != nil {
		t.Fatal(err)
	}
}

func TestDefaultFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", dir)
	want := filepath.Join(dir, "robotstxt", "cache.db")
	if got, err := DefaultFile(); err != nil || got != want {
		t.Fatalf("DefaultFile() = %q, %v; want %q", got, err, want)
	}
	s := mustOpen(t, "", nil)
	works(t, s)
	if h := Health(s); h.Name != "bbolt "+want || h.Degraded {
		t.Fatalf("Health = %+v", h)
	}
}

func TestNoCacheDirectory(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	s := mustOpen(t, "", nil)
	works(t, s)
	h := Health(s)
	if !h.Degraded || h.Name != "memory" || !strings.Contains(h.Message, "no user cache directory") ||
		!strings.HasSuffix(h.Message, "; using memory for this run") {
		t.Fatalf("Health = %+v", h)
	}
}

func TestLockedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.db")
	holder, err := boltstore.Open(path, nil) // holds the file's lock, as another process would
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if err := holder.Put(ctx, "https://example.com", []byte("the file's"), 0); err != nil {
		t.Fatal(err)
	}

	s := mustOpen(t, path, &Options{LockTimeout: 100 * time.Millisecond})
	want := store.Health{Name: "memory", Degraded: true,
		Message: "cache file " + path + " is in use by another process; using memory for this run"}
	if h := Health(s); h != want {
		t.Fatalf("Health = %+v, want %+v", h, want)
	}
	if _, ok, _ := s.Get(ctx, "https://example.com"); ok {
		t.Fatal("the memory store answered with the locked file's entry")
	}
	works(t, s)
	if v, _, _ := holder.Get(ctx, "https://example.com"); string(v) != "the file's" {
		t.Fatalf("the file changed: %q", v)
	}
}

func TestRedis(t *testing.T) {
	srv := redistest.Start(t)
	s := mustOpen(t, "redis://"+srv.Addr+"/0?prefix=test:", nil)
	if _, ok := s.(*store.Fallback); !ok {
		t.Fatalf("Open(redis://...) = %T, want a Fallback around Redis", s)
	}
	works(t, s)
	if h := Health(s); h.Name != "redis "+srv.Addr || h.Degraded {
		t.Fatalf("Health = %+v", h)
	}
	if _, ok := s.(store.Leaser); !ok {
		t.Fatal("the Redis store has no leases")
	}
}

func TestRedisDownAtStart(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	now := time.Date(2025, 6, 1, 9, 30, 0, 0, time.Local)
	s := mustOpen(t, "redis://"+addr, &Options{Now: func() time.Time { return now }})
	h := Health(s)
	if !h.Degraded || !strings.HasPrefix(h.Message, "redis "+addr+" unreachable since 09:30:00: ") ||
		!strings.HasSuffix(h.Message, "; answering from memory") {
		t.Fatalf("Health = %+v", h)
	}
	works(t, s) // from memory
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	notCache := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notCache, []byte(strings.Repeat("my notes\n", 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ spec, want string }{
		{"http://example.com/cache", `unknown store "http://..."`},
		{"memcached://127.0.0.1:11211", `unknown store "memcached://..."`},
		{"redis://127.0.0.1:notaport", "invalid Redis URL"},
		{notCache, "is not a bbolt file"},
		{dir, "is a directory"},
	} {
		s, err := Open(tt.spec, nil)
		if err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", tt.spec)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Open(%q): %v, want an error with %q", tt.spec, err, tt.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "http:")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a URL with an unknown scheme was taken for a file path")
	}
}

func TestHealthOfAnyStore(t *testing.T) {
	var s store.Store = plain{}
	if h := Health(s); h.Name != "storeopen.plain" || h.Degraded {
		t.Fatalf("Health = %+v", h)
	}
}

type plain struct{ store.Store }

// TestOpenRedisCluster: redis-cluster:// opens a cluster store behind a
// Fallback; with nobody listening it answers from memory and says so.
func TestOpenRedisCluster(t *testing.T) {
	st, err := Open("redis-cluster://127.0.0.1:1,127.0.0.1:2?prefix=x:&dial_timeout=100ms", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h := Health(st)
	if !strings.HasPrefix(h.Name, "redis cluster 127.0.0.1:1,127.0.0.1:2") || !h.Degraded {
		t.Errorf("Health = %+v", h)
	}
	if _, err := Open("redis-cluster://127.0.0.1:1,,x", nil); err == nil || !strings.Contains(err.Error(), "empty address") {
		t.Errorf("empty address: %v", err)
	}
}
