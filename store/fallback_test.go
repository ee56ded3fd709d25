package store

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// flaky is a primary store that can be taken down: while down, every call
// fails as a refused connection does.
type flaky struct {
	mem    *Memory
	leases *leaseTable
	now    func() time.Time

	mu        sync.Mutex
	down      bool
	calls     int
	closed    bool
	hook      func(ctx context.Context) error // when set, its error is returned
	partOf    func(key string) string         // when set, the part of the primary that holds key
	partsDown map[string]bool                 // parts down
}

func newFlaky(now func() time.Time) *flaky {
	return &flaky{mem: NewMemory(&MemoryOptions{Now: now}), leases: newLeaseTable(), now: now}
}

var errRefused = &net.OpError{Op: "dial", Net: "tcp",
	Addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}, Err: &errnoWrap{syscall.ECONNREFUSED}}

// errnoWrap writes the error as the net package does ("connect: ...").
type errnoWrap struct{ errno syscall.Errno }

func (e *errnoWrap) Error() string { return "connect: " + e.errno.Error() }
func (e *errnoWrap) Unwrap() error { return e.errno }

func (f *flaky) setDown(down bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down = down
}

func (f *flaky) callCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

// setPartDown takes the part of the primary named down, or brings it back.
func (f *flaky) setPartDown(part string, down bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.partsDown == nil {
		f.partsDown = map[string]bool{}
	}
	f.partsDown[part] = down
}

// enter counts a call on key ("" for none) and returns its error.
func (f *flaky) enter(ctx context.Context, key string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	switch {
	case f.closed:
		return ErrClosed
	case f.hook != nil:
		return f.hook(ctx)
	case f.down:
		return errRefused
	case key != "" && f.partOf != nil && f.partsDown[f.partOf(key)]:
		return errRefused
	}
	return nil
}

// parted is a flaky primary with parts (flaky.partOf), which says so.
type parted struct{ *flaky }

func (p parted) Part(key string) string { return p.partOf(key) }

func (f *flaky) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if err := f.enter(ctx, key); err != nil {
		return nil, false, err
	}
	return f.mem.Get(ctx, key)
}

func (f *flaky) Put(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if err := f.enter(ctx, key); err != nil {
		return err
	}
	return f.mem.Put(ctx, key, value, ttl)
}

func (f *flaky) Delete(ctx context.Context, key string) error {
	if err := f.enter(ctx, key); err != nil {
		return err
	}
	return f.mem.Delete(ctx, key)
}

func (f *flaky) Lease(ctx context.Context, key, owner string, ttl time.Duration) (bool, error) {
	if err := f.enter(ctx, key); err != nil {
		return false, err
	}
	return f.leases.lease(f.now(), key, owner, ttl), nil
}

func (f *flaky) Release(ctx context.Context, key, owner string) error {
	if err := f.enter(ctx, key); err != nil {
		return err
	}
	f.leases.release(key, owner)
	return nil
}

func (f *flaky) Ping(ctx context.Context) error { return f.enter(ctx, "") }

func (f *flaky) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	return f.mem.Close()
}

func (f *flaky) Health() Health { return Health{Name: "flaky 127.0.0.1:1"} }

type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func newTestClock() *testClock {
	return &testClock{now: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)}
}

var ctx = context.Background()

func wantValue(t *testing.T, s Store, key, want string) {
	t.Helper()
	got, ok, err := s.Get(ctx, key)
	if err != nil || !ok || string(got) != want {
		t.Fatalf("Get(%q) = %q, %v, %v; want %q, true, nil", key, got, ok, err, want)
	}
}

func wantMissing(t *testing.T, s Store, key string) {
	t.Helper()
	got, ok, err := s.Get(ctx, key)
	if err != nil || ok {
		t.Fatalf("Get(%q) = %q, %v, %v; want missing", key, got, ok, err)
	}
}

func wantHealth(t *testing.T, f *Fallback, degraded bool, message string) {
	t.Helper()
	h := f.Health()
	if h.Name != "flaky 127.0.0.1:1" || h.Degraded != degraded || h.Message != message {
		t.Fatalf("Health() = %+v, want degraded %v, message %q", h, degraded, message)
	}
}

func put(t *testing.T, s Store, key, value string, ttl time.Duration) {
	t.Helper()
	if err := s.Put(ctx, key, []byte(value), ttl); err != nil {
		t.Fatalf("Put(%q): %v", key, err)
	}
}

const downMessage = "flaky 127.0.0.1:1 unreachable since 12:00:00: dial tcp 127.0.0.1:1: connect: connection refused; answering from memory"

func TestFallbackOutage(t *testing.T) {
	c := newTestClock()
	p := newFlaky(c.Now)
	f := NewFallback(p, &FallbackOptions{Now: c.Now, RetryAfter: 10 * time.Second})
	defer f.Close()

	put(t, f, "https://written.example", "w", 0)
	put(t, p.mem, "https://other.example", "o", 0) // written by another process
	wantValue(t, f, "https://other.example", "o")
	wantMissing(t, f, "https://nowhere.example")
	wantHealth(t, f, false, "")

	// The primary goes away: answers come from memory, and Health says so.
	p.setDown(true)
	wantValue(t, f, "https://written.example", "w")
	wantHealth(t, f, true, downMessage)
	wantValue(t, f, "https://other.example", "o")
	wantMissing(t, f, "https://nowhere.example")
	put(t, f, "https://during.example", "d", 0)
	wantValue(t, f, "https://during.example", "d")
	if n := p.callCount(); n != 4 {
		t.Fatalf("the primary was called %d times, want 4: until the retry interval passes it is not tried", n)
	}

	// After the interval one operation tries the primary, still down.
	c.Advance(10 * time.Second)
	wantValue(t, f, "https://during.example", "d")
	if n := p.callCount(); n != 5 {
		t.Fatalf("the primary was called %d times, want 5", n)
	}
	wantValue(t, f, "https://during.example", "d")
	if n := p.callCount(); n != 5 {
		t.Fatalf("the primary was called %d times, want 5: the next try is an interval later", n)
	}
	// The message keeps the time the outage began.
	c.Advance(24 * time.Hour)
	wantHealth(t, f, true, strings.Replace(downMessage, "since 12:00:00", "since 2025-06-01 12:00:00", 1))

	// The primary is back: the next operation uses it and Health clears.
	p.setDown(false)
	wantMissing(t, f, "https://nowhere.example")
	wantHealth(t, f, false, "")
	if n := p.callCount(); n != 6 {
		t.Fatalf("the primary was called %d times, want 6", n)
	}
	// What was written during the outage went to memory, and is written
	// back to the primary when it is next read.
	if _, ok, _ := p.mem.Get(ctx, "https://during.example"); ok {
		t.Fatal("a write made during the outage reached the primary")
	}
	wantValue(t, f, "https://during.example", "d")
	wantValue(t, p.mem, "https://during.example", "d")
}

// TestFallbackParts: on a primary with parts, a part that fails sends its
// keys to memory, and only those; the keys of the parts that work stay on
// the primary, for values and leases. Each part is tried again on its own.
func TestFallbackParts(t *testing.T) {
	c := newTestClock()
	p := newFlaky(c.Now)
	p.partOf = func(key string) string {
		if strings.HasPrefix(key, "https://a") {
			return "part a"
		}
		return "part b"
	}
	f := NewFallback(parted{p}, &FallbackOptions{Now: c.Now, RetryAfter: 10 * time.Second})
	defer f.Close()
	put(t, f, "https://a1.example", "a1", 0)
	put(t, f, "https://b1.example", "b1", 0)

	p.setPartDown("part a", true)
	wantValue(t, f, "https://a1.example", "a1") // from memory
	const partMessage = "flaky 127.0.0.1:1: part a unreachable since 12:00:00: dial tcp 127.0.0.1:1: connect: connection refused; answering its keys from memory"
	wantHealth(t, f, true, partMessage)
	if !f.KeyDegraded("https://a1.example") || f.KeyDegraded("https://b1.example") {
		t.Fatal("KeyDegraded: want part a's keys only")
	}
	calls := p.callCount()
	// Part b's keys are read and written on the primary.
	put(t, p.mem, "https://b2.example", "b2", 0) // by another process
	wantValue(t, f, "https://b2.example", "b2")
	put(t, f, "https://b3.example", "b3", 0)
	wantValue(t, p.mem, "https://b3.example", "b3")
	if got, err := f.Lease(ctx, "https://b3.example", "me", time.Minute); !got || err != nil {
		t.Fatalf("Lease = %v, %v", got, err)
	}
	if got := p.leases.lease(c.Now(), "https://b3.example", "another", time.Minute); got {
		t.Fatal("the lease on part b's key was not taken on the primary")
	}
	// Part a's are not tried until the interval has passed.
	put(t, f, "https://a2.example", "a2", 0)
	wantValue(t, f, "https://a2.example", "a2")
	if got, err := f.Lease(ctx, "https://a2.example", "me", time.Minute); !got || err != nil {
		t.Fatalf("Lease = %v, %v", got, err)
	}
	if n := p.callCount() - calls; n != 3 {
		t.Fatalf("the primary was called %d times, want 3: part b's calls alone", n)
	}
	wantHealth(t, f, true, partMessage)

	// The primary as a whole fails a Ping: its keys that have a part
	// working stay on it, and an answer clears the failure of the whole.
	p.setDown(true)
	if err := f.Ping(ctx); err == nil {
		t.Fatal("Ping succeeded")
	}
	p.setDown(false)
	wantValue(t, f, "https://b1.example", "b1")
	wantHealth(t, f, true, partMessage)

	// Part a comes back: after the interval one operation finds it, and
	// what was written meanwhile is written back when read.
	p.setPartDown("part a", false)
	c.Advance(10 * time.Second)
	wantValue(t, f, "https://a2.example", "a2")
	wantHealth(t, f, false, "")
	wantValue(t, p.mem, "https://a2.example", "a2")
}

// TestFallbackPartsMessage: with several parts down, Health names them
// (three at most), from the first failure, with the last error.
func TestFallbackPartsMessage(t *testing.T) {
	c := newTestClock()
	p := newFlaky(c.Now)
	p.partOf = func(key string) string { return "part " + key[len("https://"):][:1] }
	f := NewFallback(parted{p}, &FallbackOptions{Now: c.Now})
	defer f.Close()
	for i, part := range []string{"c", "a", "e", "b", "d"} {
		p.setPartDown("part "+part, true)
		wantMissing(t, f, "https://"+part+".example")
		if i == 1 {
			wantHealth(t, f, true, "flaky 127.0.0.1:1: part a, part c unreachable since 12:00:00: "+
				"dial tcp 127.0.0.1:1: connect: connection refused; answering their keys from memory")
		}
		c.Advance(time.Second)
	}
	wantHealth(t, f, true, "flaky 127.0.0.1:1: part a, part b, part c, 2 more unreachable since 12:00:00: "+
		"dial tcp 127.0.0.1:1: connect: connection refused; answering their keys from memory")
}

func TestFallbackWriteBack(t *testing.T) {
	c := newTestClock()
	p := newFlaky(c.Now)
	f := NewFallback(p, &FallbackOptions{Now: c.Now, RetryAfter: time.Second})
	defer f.Close()

	put(t, f, "https://deleted.example", "old", 0)
	put(t, f, "https://rewritten.example", "before", 0)
	p.setDown(true)
	put(t, f, "https://hour.example", "h", time.Hour)
	put(t, f, "https://minute.example", "m", time.Minute)
	put(t, f, "https://rewritten.example", "during", 0)
	if err := f.Delete(ctx, "https://deleted.example"); err != nil {
		t.Fatal(err)
	}
	wantMissing(t, f, "https://deleted.example")
	put(t, f, "https://raced.example", "ours", 0)
	put(t, p.mem, "https://raced.example", "theirs", 0) // another process, still reaching the primary

	c.Advance(10 * time.Minute)
	p.setDown(false)
	wantValue(t, f, "https://hour.example", "h")
	wantHealth(t, f, false, "")
	wantValue(t, p.mem, "https://hour.example", "h")
	wantMissing(t, f, "https://minute.example") // expired during the outage: not written back
	wantMissing(t, p.mem, "https://minute.example")
	wantMissing(t, f, "https://deleted.example")
	wantMissing(t, p.mem, "https://deleted.example")
	// The primary holds a value: it wins over one written during the outage.
	wantValue(t, f, "https://raced.example", "theirs")
	wantValue(t, f, "https://rewritten.example", "before")

	// The written-back entry keeps what was left of its ttl: 50 minutes.
	c.Advance(49 * time.Minute)
	wantValue(t, p.mem, "https://hour.example", "h")
	c.Advance(time.Minute)
	wantMissing(t, p.mem, "https://hour.example")
	wantMissing(t, f, "https://hour.example")
}

func TestFallbackMemoryFollowsPrimary(t *testing.T) {
	c := newTestClock()
	p := newFlaky(c.Now)
	f := NewFallback(p, &FallbackOptions{Now: c.Now})
	defer f.Close()

	put(t, f, "https://gone.example", "g", 0)
	put(t, f, "https://changed.example", "v1", 0)
	put(t, f, "https://ttl.example", "t", time.Minute)
	wantValue(t, f, "https://ttl.example", "t")
	// Another process deletes one and changes another.
	if err := p.mem.Delete(ctx, "https://gone.example"); err != nil {
		t.Fatal(err)
	}
	put(t, p.mem, "https://changed.example", "v2", 0)
	wantMissing(t, f, "https://gone.example")
	wantValue(t, f, "https://changed.example", "v2")

	p.setDown(true)
	wantMissing(t, f, "https://gone.example")
	wantValue(t, f, "https://changed.example", "v2")
	// A copy kept from a read keeps the ttl of the write it mirrors.
	wantValue(t, f, "https://ttl.example", "t")
	c.Advance(time.Minute)
	wantMissing(t, f, "https://ttl.example")
}

func TestFallbackOneProbe(t *testing.T) {
	c := newTestClock()
	p := newFlaky(c.Now)
	f := NewFallback(p, &FallbackOptions{Now: c.Now, RetryAfter: time.Second})
	defer f.Close()
	p.setDown(true)
	put(t, f, "https://example.com", "v", 0) // fails over
	c.Advance(time.Second)
	before := p.callCount()
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v, ok, err := f.Get(ctx, "https://example.com"); err != nil || !ok || string(v) != "v" {
				t.Errorf("Get = %q, %v, %v", v, ok, err)
			}
		}()
	}
	wg.Wait()
	if n := p.callCount() - before; n != 1 {
		t.Fatalf("32 concurrent Gets after the interval tried the primary %d times, want 1", n)
	}
}

func TestFallbackCallerErrors(t *testing.T) {
	c := newTestClock()
	p := newFlaky(c.Now)
	f := NewFallback(p, &FallbackOptions{Now: c.Now})
	defer f.Close()

	// The caller's deadline passing during a call is the caller's error,
	// not the primary failing.
	cctx, cancel := context.WithCancel(ctx)
	p.mu.Lock()
	p.hook = func(context.Context) error { cancel(); return context.Canceled }
	p.mu.Unlock()
	if _, _, err := f.Get(cctx, "https://example.com"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Get = %v, want context.Canceled", err)
	}
	wantHealthy := f.Health()
	if wantHealthy.Degraded {
		t.Fatalf("a cancelled call made the store degraded: %+v", wantHealthy)
	}
	p.mu.Lock()
	p.hook = nil
	p.mu.Unlock()

	if err := f.Put(ctx, "", nil, 0); !errors.Is(err, ErrInvalidKey) {
		t.Fatalf("Put of an empty key: %v", err)
	}
	if _, err := f.Lease(ctx, "https://example.com", "me", 0); !errors.Is(err, ErrInvalidTTL) {
		t.Fatalf("Lease with ttl 0: %v", err)
	}
	if f.Health().Degraded {
		t.Fatal("invalid arguments made the store degraded")
	}
}

func TestFallbackLeases(t *testing.T) {
	c := newTestClock()
	p := newFlaky(c.Now)
	f := NewFallback(p, &FallbackOptions{Now: c.Now, RetryAfter: time.Second})
	defer f.Close()
	const k = "https://example.com"
	lease := func(owner string, want bool) {
		t.Helper()
		got, err := f.Lease(ctx, k, owner, time.Minute)
		if err != nil || got != want {
			t.Fatalf("Lease(%q) = %v, %v; want %v", owner, got, err, want)
		}
	}
	lease("a", true)
	if got := p.leases.lease(c.Now(), k, "other process", time.Minute); got {
		t.Fatal("the lease was not taken on the primary")
	}
	p.setDown(true)
	// Cut off from the primary, leases are this process's own.
	lease("b", true)
	lease("c", false)
	if err := f.Release(ctx, k, "b"); err != nil {
		t.Fatal(err)
	}
	lease("c", true)
	c.Advance(time.Second)
	p.setDown(false)
	lease("b", false) // the primary again: a still holds it there
	if err := f.Release(ctx, k, "a"); err != nil {
		t.Fatal(err)
	}
	lease("b", true)
}

func TestFallbackPing(t *testing.T) {
	c := newTestClock()
	p := newFlaky(c.Now)
	f := NewFallback(p, &FallbackOptions{Now: c.Now})
	defer f.Close()
	p.setDown(true)
	if err := f.Ping(ctx); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("Ping = %v, want the refused connection", err)
	}
	wantHealth(t, f, true, downMessage)
	p.setDown(false)
	if err := f.Ping(ctx); err != nil {
		t.Fatalf("Ping = %v", err)
	}
	wantHealth(t, f, false, "")

	// A primary without Ping: nothing to ask.
	m := NewFallback(NewMemory(nil), nil)
	if err := m.Ping(ctx); err != nil {
		t.Fatalf("Ping of a memory primary = %v", err)
	}
	if h := m.Health(); h.Name != "memory" || h.Degraded {
		t.Fatalf("Health = %+v", h)
	}
}

func TestFallbackMemoryBound(t *testing.T) {
	c := newTestClock()
	p := newFlaky(c.Now)
	f := NewFallback(p, &FallbackOptions{Now: c.Now, Memory: &MemoryOptions{MaxEntries: 3}})
	defer f.Close()
	for _, k := range []string{"a", "b", "c", "d", "e"} {
		put(t, f, "https://"+k+".example", k, 0)
	}
	if n := f.mem.Len(); n != 3 {
		t.Fatalf("memory holds %d copies, want 3", n)
	}
	p.setDown(true)
	wantMissing(t, f, "https://a.example")
	wantValue(t, f, "https://e.example", "e")
	for _, k := range []string{"f", "g", "h", "i", "j"} {
		put(t, f, "https://"+k+".example", k, 0)
	}
	if n := len(f.dirty); n > 3 {
		t.Fatalf("%d writes remembered for write-back, more than the bound of 3", n)
	}
}

func TestLeaseTableSweeps(t *testing.T) {
	l := newLeaseTable()
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 5000 {
		if !l.lease(now.Add(time.Duration(i)*time.Second), string(rune('a'+i%26))+strings.Repeat("x", i/26), "o", time.Second) {
			t.Fatal("a fresh key was refused")
		}
	}
	if n := len(l.m); n >= 2048 {
		t.Fatalf("%d leases kept, all but the newest expired: the table does not sweep", n)
	}
}

func TestClockTime(t *testing.T) {
	now := time.Date(2025, 6, 1, 18, 0, 0, 0, time.UTC)
	if got := clockTime(now.Add(-time.Hour), now); got != "17:00:00" {
		t.Errorf("same day: %q", got)
	}
	if got := clockTime(now.Add(-24*time.Hour), now); got != "2025-05-31 18:00:00" {
		t.Errorf("the day before: %q", got)
	}
}

// noBatch is a memory store that, as a Redis Cluster does, refuses a
// batch of several keys.
type noBatch struct{ *Memory }

func (n noBatch) Apply(ctx context.Context, ops []Op) error {
	if len(ops) > 1 {
		return fmt.Errorf("cluster: %w", ErrNoBatch)
	}
	return n.Memory.Apply(ctx, ops)
}

// TestFallbackNoBatch: a primary that refuses a batch (ErrNoBatch) is not
// failing: the Fallback says the refusal, stays healthy, and writes
// nothing to memory in its place.
func TestFallbackNoBatch(t *testing.T) {
	f := NewFallback(noBatch{NewMemory(nil)}, nil)
	defer f.Close()
	ctx := context.Background()
	err := f.Apply(ctx, []Op{{Key: "a", Value: []byte("1")}, {Key: "b", Value: []byte("2")}})
	if !errors.Is(err, ErrNoBatch) {
		t.Fatalf("Apply = %v, want ErrNoBatch", err)
	}
	if h := f.Health(); h.Degraded {
		t.Errorf("degraded by a refused batch: %+v", h)
	}
	if _, ok, _ := f.Get(ctx, "a"); ok {
		t.Error("the refused batch was written")
	}
	if err := f.Apply(ctx, []Op{{Key: "a", Value: []byte("1")}}); err != nil {
		t.Errorf("a batch of one: %v", err)
	}
}
