package redisstore

import (
	"strings"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/internal/redistest"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/storetest"
)

// TestFallbackRedisGoesAway kills a real redis-server under a Fallback, checks
// that the cache keeps answering from memory and says so, restarts the server
// on the same port, and checks that it is used again.
func TestFallbackRedisGoesAway(t *testing.T) {
	srv := redistest.Start(t)
	r := raw(t, srv)
	s := mustOpen(t, "redis://"+srv.Addr, nil)
	c := storetest.NewClock(time.Date(2025, 6, 1, 12, 0, 1, 0, time.Local))
	f := store.NewFallback(s, &store.FallbackOptions{Now: c.Now, RetryAfter: 5 * time.Second})
	defer f.Close()

	get := func(key string) (string, bool) {
		t.Helper()
		v, ok, err := f.Get(ctx, key)
		if err != nil {
			t.Fatalf("Get(%q): %v", key, err)
		}
		return string(v), ok
	}
	put := func(key, value string) {
		t.Helper()
		if err := f.Put(ctx, key, []byte(value), time.Hour); err != nil {
			t.Fatalf("Put(%q): %v", key, err)
		}
	}

	put("https://before.example", "b")
	if v, ok := get("https://before.example"); !ok || v != "b" {
		t.Fatalf("before the outage: %q, %v", v, ok)
	}
	if h := f.Health(); h.Degraded || h.Name != "redis "+srv.Addr {
		t.Fatalf("Health before the outage = %+v", h)
	}

	srv.Kill()
	returns(t, "Get while Redis is down", func() {
		if v, ok := get("https://before.example"); !ok || v != "b" {
			t.Errorf("during the outage: %q, %v; want the copy in memory", v, ok)
		}
	})
	h := f.Health()
	wantStart := "redis " + srv.Addr + " unreachable since 12:00:01: "
	if !h.Degraded || !strings.HasPrefix(h.Message, wantStart) || !strings.HasSuffix(h.Message, "; answering from memory") ||
		!strings.Contains(h.Message, srv.Addr) {
		t.Fatalf("Health during the outage = %+v, want a message like %q...%q", h, wantStart, "; answering from memory")
	}
	t.Logf("during the outage: %s", h.Message)
	put("https://during.example", "d")
	if v, ok := get("https://during.example"); !ok || v != "d" {
		t.Fatalf("written during the outage: %q, %v", v, ok)
	}
	if ok, err := f.Lease(ctx, "https://during.example", "me", time.Minute); err != nil || !ok {
		t.Fatalf("Lease during the outage = %v, %v; want one for this process", ok, err)
	}

	// Redis comes back, empty (it saves nothing).
	srv.Restart()
	c.Advance(5 * time.Second)
	deadline := time.Now().Add(30 * time.Second)
	for {
		get("https://probe.example")
		if !f.Health().Degraded {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Redis is back, but the store still says: %s", f.Health().Message)
		}
		time.Sleep(20 * time.Millisecond) // the client's pool may need a moment
		c.Advance(5 * time.Second)
	}
	// Used again: what is written now is in Redis.
	put("https://after.example", "a")
	if v, err := r.Get(ctx, "robotstxt:entry:https://after.example").Result(); err != nil || v != "a" {
		t.Fatalf("after the outage, a write did not reach Redis: %q, %v", v, err)
	}
	// What was written during the outage is written back when read.
	if v, ok := get("https://during.example"); !ok || v != "d" {
		t.Fatalf("written during the outage, read after: %q, %v", v, ok)
	}
	if v, err := r.Get(ctx, "robotstxt:entry:https://during.example").Result(); err != nil || v != "d" {
		t.Fatalf("the write made during the outage was not written back: %q, %v", v, err)
	}
	if d, err := r.PTTL(ctx, "robotstxt:entry:https://during.example").Result(); err != nil || d <= 0 || d > time.Hour {
		t.Fatalf("the written-back entry's PTTL = %v, %v; want what was left of its hour", d, err)
	}
	// Redis is the authority again: it lost what it held before.
	if _, ok := get("https://before.example"); ok {
		t.Fatal("after the restart, an entry Redis lost is still answered from memory")
	}
}
