package redisstore

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/seed53c283f5/robotstxt/internal/redistest"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/storetest"
)

var ctx = context.Background()

func mustOpen(t *testing.T, rawURL string, opts *Options) *Store {
	t.Helper()
	s, err := Open(rawURL, opts)
	if err != nil {
		t.Fatalf("Open(%q): %v", rawURL, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// raw returns a plain client on the server, to look at what the store wrote.
func raw(t *testing.T, srv *redistest.Server) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: srv.Addr})
	t.Cleanup(func() { c.Close() })
	return c
}

func TestConformance(t *testing.T) {
	srv := redistest.Start(t)
	var n atomic.Int64
	storetest.Run(t, func(t *testing.T, now func() time.Time) store.Store {
		// One server for all the subtests, each with a prefix of its own:
		// each store starts empty.
		s, err := Open(fmt.Sprintf("redis://%s/0?prefix=conformance%d:", srv.Addr, n.Add(1)), nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}, &storetest.Options{RealTime: true})
}

func TestKeyNamesAndTTL(t *testing.T) {
	srv := redistest.Start(t)
	s := mustOpen(t, "redis://"+srv.Addr, nil)
	r := raw(t, srv)
	if err := s.Put(ctx, "https://example.com", []byte("v"), 90*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, "https://forever.example", []byte("f"), 0); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, "https://fraction.example", []byte("f"), 1500*time.Microsecond); err != nil {
		t.Fatal(err)
	}
	if v, err := r.Get(ctx, "robotstxt:entry:https://example.com").Result(); err != nil || v != "v" {
		t.Fatalf("the value is not under robotstxt:entry:https://example.com: %q, %v", v, err)
	}
	if d, err := r.PTTL(ctx, "robotstxt:entry:https://example.com").Result(); err != nil || d <= 80*time.Second || d > 90*time.Second {
		t.Fatalf("PTTL = %v, %v; want 90s, less what the test took", d, err)
	}
	if d, err := r.PTTL(ctx, "robotstxt:entry:https://forever.example").Result(); err != nil || d != -1 {
		t.Fatalf("PTTL of an entry without ttl = %v, %v; want -1 (none)", d, err)
	}
	if ok, err := s.Lease(ctx, "https://example.com", "me", 30*time.Second); err != nil || !ok {
		t.Fatalf("Lease = %v, %v", ok, err)
	}
	if v, err := r.Get(ctx, "robotstxt:lease:https://example.com").Result(); err != nil || v != "me" {
		t.Fatalf("the lease is not under robotstxt:lease:https://example.com: %q, %v", v, err)
	}
	if d, err := r.PTTL(ctx, "robotstxt:lease:https://example.com").Result(); err != nil || d <= 20*time.Second || d > 30*time.Second {
		t.Fatalf("PTTL of the lease = %v, %v; want 30s", d, err)
	}
	if h := s.Health(); h.Name != "redis "+srv.Addr || h.Degraded {
		t.Fatalf("Health = %+v", h)
	}
	if s.Prefix() != DefaultPrefix {
		t.Fatalf("Prefix = %q", s.Prefix())
	}
}

func TestPX(t *testing.T) {
	for _, tt := range []struct{ in, want time.Duration }{
		{time.Nanosecond, time.Millisecond},
		{time.Millisecond, time.Millisecond},
		{1500 * time.Microsecond, 2 * time.Millisecond},
		{time.Hour, time.Hour},
	} {
		if got := px(tt.in); got != tt.want {
			t.Errorf("px(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestPrefixesSeparateCaches(t *testing.T) {
	srv := redistest.Start(t)
	a := mustOpen(t, "redis://"+srv.Addr+"?prefix=fleetA:", nil)
	b := mustOpen(t, "redis://"+srv.Addr, &Options{Prefix: "fleetB:"})
	a2 := mustOpen(t, "redis://"+srv.Addr, &Options{Prefix: "fleetA:"}) // another process of fleet A
	if a.Prefix() != "fleetA:" || b.Prefix() != "fleetB:" {
		t.Fatalf("prefixes %q, %q", a.Prefix(), b.Prefix())
	}
	if err := a.Put(ctx, "https://example.com", []byte("A"), 0); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := b.Get(ctx, "https://example.com"); err != nil || ok {
		t.Fatalf("fleet B sees fleet A's entry: %v, %v", ok, err)
	}
	if v, ok, err := a2.Get(ctx, "https://example.com"); err != nil || !ok || string(v) != "A" {
		t.Fatalf("a second process of fleet A: %q, %v, %v", v, ok, err)
	}
	// Leases are shared by the processes of one fleet.
	if ok, _ := a.Lease(ctx, "https://example.com", "process-1", time.Minute); !ok {
		t.Fatal("process 1 could not take the lease")
	}
	if ok, _ := a2.Lease(ctx, "https://example.com", "process-2", time.Minute); ok {
		t.Fatal("process 2 took the lease process 1 holds")
	}
	if ok, _ := b.Lease(ctx, "https://example.com", "process-3", time.Minute); !ok {
		t.Fatal("fleet B is refused a lease that fleet A holds")
	}
}

func TestLeaseAcrossClients(t *testing.T) {
	srv := redistest.Start(t)
	const processes = 8
	stores := make([]*Store, processes)
	for i := range stores {
		stores[i] = mustOpen(t, "redis://"+srv.Addr, nil)
	}
	for round := range 20 {
		key := fmt.Sprintf("https://site%d.example", round)
		var wg sync.WaitGroup
		var winners atomic.Int32
		for i, s := range stores {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := s.Lease(ctx, key, fmt.Sprintf("process-%d", i), time.Minute)
				if err != nil {
					t.Error(err)
				}
				if ok {
					winners.Add(1)
				}
			}()
		}
		wg.Wait()
		if n := winners.Load(); n != 1 {
			t.Fatalf("%s: %d of %d processes took the lease, want 1", key, n, processes)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	for _, tt := range []struct{ url, want string }{
		{"http://example.com", "invalid Redis URL"},
		{"redis://user:s3cret@127.0.0.1:notaport", "invalid Redis URL"},
		{"redis://user:s3cret@127.0.0.1:6379/notadb", "invalid Redis URL"},
		{"redis://127.0.0.1:6379?unknown_option=1", "invalid Redis URL"},
		{"redis://%zz", "invalid Redis URL"},
	} {
		_, err := Open(tt.url, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Open(%q): %v, want an error with %q", tt.url, err, tt.want)
			continue
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("Open(%q): the error shows the password: %v", tt.url, err)
		}
	}
}

func TestTimeouts(t *testing.T) {
	s := mustOpen(t, "redis://127.0.0.1:1", nil)
	o := s.client.(*redis.Client).Options()
	if o.DialTimeout != time.Second || o.ReadTimeout != time.Second || o.WriteTimeout != time.Second ||
		o.MaxRetries != 1 || !o.ContextTimeoutEnabled {
		t.Errorf("defaults: dial %v, read %v, write %v, retries %d, context %v",
			o.DialTimeout, o.ReadTimeout, o.WriteTimeout, o.MaxRetries, o.ContextTimeoutEnabled)
	}
	s = mustOpen(t, "redis://127.0.0.1:1?dial_timeout=3s&read_timeout=250ms", &Options{WriteTimeout: 2 * time.Second})
	o = s.client.(*redis.Client).Options()
	if o.DialTimeout != 3*time.Second || o.ReadTimeout != 250*time.Millisecond || o.WriteTimeout != 2*time.Second {
		t.Errorf("from the URL and options: dial %v, read %v, write %v", o.DialTimeout, o.ReadTimeout, o.WriteTimeout)
	}
}

// returns runs f and fails the test if it has not returned after a minute.
func returns(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s hangs", what)
	}
}

func TestNobodyListening(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nobody listens there now
	s := mustOpen(t, "redis://"+addr, nil)
	returns(t, "Get on a port nobody listens on", func() {
		_, _, err = s.Get(ctx, "https://example.com")
	})
	var re *Error
	if !errors.As(err, &re) || re.Op != "GET" || re.Key != "https://example.com" || re.Addr != "redis "+addr {
		t.Fatalf("Get: %#v, want a *Error", err)
	}
	if !strings.Contains(err.Error(), "refused") {
		t.Errorf("the error does not say the connection was refused: %v", err)
	}
	if err := s.Ping(ctx); err == nil {
		t.Error("Ping succeeded")
	}
}

// TestSilentServer: a server that takes connections and never answers must
// not hold a call for longer than the read timeout.
func TestSilentServer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns sync.WaitGroup
	stop := make(chan struct{})
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			go func() { defer conns.Done(); <-stop; c.Close() }()
		}
	}()
	t.Cleanup(func() { l.Close(); close(stop); conns.Wait() })

	s := mustOpen(t, "redis://"+l.Addr().String()+"?read_timeout=100ms&dial_timeout=100ms", nil)
	f := store.NewFallback(s, nil)
	returns(t, "Put to a server that never answers", func() {
		err = f.Put(ctx, "https://example.com", []byte("v"), 0)
	})
	if err != nil {
		t.Fatalf("Put through the fallback: %v", err)
	}
	h := f.Health()
	if !h.Degraded || !strings.Contains(h.Message, "timeout") {
		t.Fatalf("Health = %+v, want degraded by a timeout", h)
	}
	// The caller's own deadline is honoured too, and is the caller's.
	s2 := mustOpen(t, "redis://"+l.Addr().String()+"?read_timeout=1m&dial_timeout=1m", nil)
	dctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	returns(t, "Get with a deadline from a server that never answers", func() {
		_, _, err = s2.Get(dctx, "https://example.com")
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Get = %v, want context.DeadlineExceeded", err)
	}
}

func TestNewWithClient(t *testing.T) {
	srv := redistest.Start(t)
	c := redis.NewClient(&redis.Options{Addr: srv.Addr, DB: 2})
	defer c.Close()
	s := New(c, &Options{Prefix: "mine:"})
	if err := s.Put(ctx, "https://example.com", []byte("v"), 0); err != nil {
		t.Fatal(err)
	}
	if v, err := c.Get(ctx, "mine:entry:https://example.com").Result(); err != nil || v != "v" {
		t.Fatalf("GET = %q, %v", v, err)
	}
	if h := s.Health(); h.Name != "redis "+srv.Addr+" db 2" {
		t.Fatalf("Health = %+v", h)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Get(ctx, "https://example.com"); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("Get after Close: %v", err)
	}
	if err := c.Ping(ctx).Err(); err != nil {
		t.Fatalf("closing the store closed the caller's client: %v", err)
	}
}
