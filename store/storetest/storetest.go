// Package storetest checks implementations of store.Store, and of
// store.Leaser when they implement it, against the contract written in
// package store: one shared test, run against every store, in the way
// testing/fstest.TestFS checks a file system.
//
// A store's test calls Run with a function that opens a new, empty store:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T, now func() time.Time) store.Store {
//			return store.NewMemory(&store.MemoryOptions{Now: now})
//		}, nil)
//	}
//
// Time to live is tested on a clock the test moves (the now given to open),
// so no test waits for an expiry, except for stores that measure time on a
// clock nobody can move (a Redis server's): those set Options.RealTime, and
// the expiry tests then use ttls of a few milliseconds and wait for them.
package storetest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/store"
)

// Options say how to test a store. The zero value tests a store that reads
// the time from the now given to open.
type Options struct {
	// RealTime is set for a store that measures time to live on a clock
	// the test cannot move, and so ignores the now given to open. The
	// expiry tests then store entries and leases for a few milliseconds and
	// wait, at most WaitLimit, for them to expire.
	RealTime bool
	// WaitLimit bounds each wait for a real-time expiry (default 10 s);
	// reaching it fails the test.
	WaitLimit time.Duration
}

// Opener returns a new, empty store for one subtest, which reads the time
// from now where the store lets it be injected. Run closes the store when the
// subtest ends; closing a closed store must be harmless.
type Opener func(t *testing.T, now func() time.Time) store.Store

// Run runs the conformance tests, each as a subtest of t, on stores returned
// by open. opts may be nil.
func Run(t *testing.T, open Opener, opts *Options) {
	t.Helper()
	h := &harness{open: open, waitLimit: 10 * time.Second}
	if opts != nil {
		h.realTime = opts.RealTime
		if opts.WaitLimit > 0 {
			h.waitLimit = opts.WaitLimit
		}
	}
	tests := []struct {
		name string
		f    func(t *testing.T, h *harness)
	}{
		{"GetMissing", testGetMissing},
		{"RoundTrip", testRoundTrip},
		{"Overwrite", testOverwrite},
		{"Delete", testDelete},
		{"Copies", testCopies},
		{"BinaryValues", testBinaryValues},
		{"LargeValue", testLargeValue},
		{"EmptyValue", testEmptyValue},
		{"Keys", testKeys},
		{"InvalidKeys", testInvalidKeys},
		{"TTL", testTTL},
		{"Concurrent", testConcurrent},
		{"CancelledContext", testCancelledContext},
		{"Closed", testClosed},
	}
	// The lease tests run when the store implements store.Leaser.
	probe := open(t, time.Now)
	if _, ok := probe.(store.Leaser); ok {
		tests = append(tests, []struct {
			name string
			f    func(t *testing.T, h *harness)
		}{
			{"Lease", testLease},
			{"LeaseExpiry", testLeaseExpiry},
			{"LeaseConcurrent", testLeaseConcurrent},
		}...)
	} else {
		t.Logf("%T does not implement store.Leaser: the lease tests do not apply", probe)
	}
	// The batch tests run when it implements store.Batcher.
	if _, ok := probe.(store.Batcher); ok {
		tests = append(tests, []struct {
			name string
			f    func(t *testing.T, h *harness)
		}{
			{"Batch", testBatch},
			{"BatchRefused", testBatchRefused},
			{"Scan", testScan},
		}...)
	}
	if err := probe.Close(); err != nil {
		t.Errorf("Close of a new store: %v", err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.f(t, h) })
	}
}

type harness struct {
	open      Opener
	realTime  bool
	waitLimit time.Duration
}

// Clock is a time source tests move by hand, so that they never sleep. It
// is safe for concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock that reads t until it is moved.
func NewClock(t time.Time) *Clock { return &Clock{now: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// start opens a store on a new clock and closes it when t ends.
func (h *harness) start(t *testing.T) (store.Store, *Clock) {
	t.Helper()
	c := NewClock(time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC))
	s := h.open(t, c.Now)
	if s == nil {
		t.Fatal("open returned a nil store")
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil && !errors.Is(err, store.ErrClosed) {
			t.Errorf("Close: %v", err)
		}
	})
	return s, c
}

// eventually calls f until it reports true, for at most the harness's wait
// limit (used only by real-time stores, waiting for an expiry).
func (h *harness) eventually(t *testing.T, what string, f func() bool) {
	t.Helper()
	deadline := time.Now().Add(h.waitLimit)
	for !f() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: still not so after %v", what, h.waitLimit)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

var bg = context.Background()

func mustPut(t *testing.T, s store.Store, key string, value []byte, ttl time.Duration) {
	t.Helper()
	if err := s.Put(bg, key, value, ttl); err != nil {
		t.Fatalf("Put(%q, %d bytes, %v): %v", key, len(value), ttl, err)
	}
}

func mustDelete(t *testing.T, s store.Store, key string) {
	t.Helper()
	if err := s.Delete(bg, key); err != nil {
		t.Fatalf("Delete(%q): %v", key, err)
	}
}

// present checks that key holds want.
func present(t *testing.T, s store.Store, key string, want []byte) {
	t.Helper()
	got, ok, err := s.Get(bg, key)
	switch {
	case err != nil:
		t.Fatalf("Get(%q): %v", key, err)
	case !ok:
		t.Fatalf("Get(%q): missing, want %s", key, describe(want))
	case !bytes.Equal(got, want):
		t.Fatalf("Get(%q) = %s, want %s", key, describe(got), describe(want))
	}
}

// missing checks that key holds nothing.
func missing(t *testing.T, s store.Store, key string) {
	t.Helper()
	got, ok, err := s.Get(bg, key)
	switch {
	case err != nil:
		t.Fatalf("Get(%q): %v", key, err)
	case ok:
		t.Fatalf("Get(%q) = %s, want missing", key, describe(got))
	case len(got) != 0:
		t.Fatalf("Get(%q) reports missing but returns %d bytes", key, len(got))
	}
}

func isMissing(t *testing.T, s store.Store, key string) bool {
	t.Helper()
	_, ok, err := s.Get(bg, key)
	if err != nil {
		t.Fatalf("Get(%q): %v", key, err)
	}
	return !ok
}

// describe shows a value briefly: short ones quoted, long ones by length and
// digest.
func describe(b []byte) string {
	if len(b) <= 64 {
		return fmt.Sprintf("%q", b)
	}
	return fmt.Sprintf("%d bytes (sha256 %x...)", len(b), sha256.Sum256(b))
}

func testGetMissing(t *testing.T, h *harness) {
	s, _ := h.start(t)
	missing(t, s, "https://example.com")
	mustPut(t, s, "https://example.com", []byte("x"), 0)
	missing(t, s, "https://example.org")
	missing(t, s, "https://example.com:443")
	missing(t, s, "https://EXAMPLE.com")
}

func testRoundTrip(t *testing.T, h *harness) {
	s, _ := h.start(t)
	values := map[string][]byte{
		"https://example.com":      []byte("User-agent: *\nDisallow: /private\n"),
		"http://example.com:8080":  []byte("{\"status\":200}"),
		"https://a.example":        []byte("a"),
		"ftp://files.example.net":  bytes.Repeat([]byte("0123456789"), 1000),
		"https://sub.a.example:81": []byte("\x00"),
	}
	for k, v := range values {
		mustPut(t, s, k, v, 0)
	}
	for k, v := range values {
		present(t, s, k, v)
	}
	// A Get does not consume the value.
	for k, v := range values {
		present(t, s, k, v)
	}
}

func testOverwrite(t *testing.T, h *harness) {
	s, _ := h.start(t)
	const k = "https://example.com"
	for _, v := range []string{"first", "a much longer second value than the first", "3", ""} {
		mustPut(t, s, k, []byte(v), 0)
		present(t, s, k, []byte(v))
	}
	mustPut(t, s, k, bytes.Repeat([]byte{0xAB}, 100_000), 0)
	mustPut(t, s, k, []byte("short again"), 0)
	present(t, s, k, []byte("short again"))
}

func testDelete(t *testing.T, h *harness) {
	s, _ := h.start(t)
	mustPut(t, s, "https://a.example", []byte("a"), 0)
	mustPut(t, s, "https://b.example", []byte("b"), time.Hour)
	mustDelete(t, s, "https://a.example")
	missing(t, s, "https://a.example")
	present(t, s, "https://b.example", []byte("b"))
	mustDelete(t, s, "https://b.example")
	missing(t, s, "https://b.example")
	// Deleting what is not there is not an error, twice over.
	mustDelete(t, s, "https://a.example")
	mustDelete(t, s, "https://never.example")
	// A deleted key can be stored again.
	mustPut(t, s, "https://a.example", []byte("again"), 0)
	present(t, s, "https://a.example", []byte("again"))
}

func testCopies(t *testing.T, h *harness) {
	s, _ := h.start(t)
	const k = "https://example.com"
	v := []byte("original")
	mustPut(t, s, k, v, 0)
	copy(v, "CHANGED!") // the caller reuses its slice
	present(t, s, k, []byte("original"))

	got, _, err := s.Get(bg, k)
	if err != nil {
		t.Fatal(err)
	}
	copy(got, "mutated!") // the caller changes what Get returned
	present(t, s, k, []byte("original"))

	a, _, _ := s.Get(bg, k)
	b, _, _ := s.Get(bg, k)
	if len(a) > 0 && len(b) > 0 && &a[0] == &b[0] {
		t.Fatal("two Gets returned the same backing array")
	}

	// A slice with spare capacity: appending to it must not reach the store.
	big := make([]byte, 4, 64)
	copy(big, "abcd")
	mustPut(t, s, k, big, 0)
	_ = append(big, "efgh"...)
	present(t, s, k, []byte("abcd"))
}

func testBinaryValues(t *testing.T, h *harness) {
	s, _ := h.start(t)
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	values := map[string][]byte{
		"https://nul.example":      {0, 0, 0},
		"https://all.example":      all,
		"https://utf8.example":     []byte("\xff\xfe\xc3(\xed\xa0\x80"),
		"https://mid.example":      []byte("before\x00after\r\n\x1a"),
		"https://trailing.example": append([]byte("text"), 0, 0),
	}
	for k, v := range values {
		mustPut(t, s, k, v, 0)
	}
	for k, v := range values {
		present(t, s, k, v)
	}
}

// pattern returns n bytes that differ with seed and position, so a value
// truncated, shifted or mixed with another is told from the original.
func pattern(seed string, n int) []byte {
	out := make([]byte, 0, n+sha256.Size)
	block := sha256.Sum256([]byte(seed))
	for len(out) < n {
		out = append(out, block[:]...)
		block = sha256.Sum256(block[:])
	}
	return out[:n]
}

func testLargeValue(t *testing.T, h *harness) {
	s, _ := h.start(t)
	big := pattern("large", 600<<10) // more than Google's 500 KiB limit for a robots.txt
	mustPut(t, s, "https://large.example", big, 0)
	mustPut(t, s, "https://small.example", []byte("small"), 0)
	present(t, s, "https://large.example", big)
	present(t, s, "https://small.example", []byte("small"))
	bigger := pattern("larger", 2<<20)
	mustPut(t, s, "https://large.example", bigger, time.Hour)
	present(t, s, "https://large.example", bigger)
}

func testEmptyValue(t *testing.T, h *harness) {
	s, _ := h.start(t)
	mustPut(t, s, "https://nil.example", nil, 0)
	mustPut(t, s, "https://empty.example", []byte{}, 0)
	for _, k := range []string{"https://nil.example", "https://empty.example"} {
		got, ok, err := s.Get(bg, k)
		if err != nil || !ok || len(got) != 0 {
			t.Errorf("Get(%q) = %q, %v, %v; want an empty value, true, nil", k, got, ok, err)
		}
	}
	missing(t, s, "https://missing.example")
	mustDelete(t, s, "https://empty.example")
	missing(t, s, "https://empty.example")
}

// OddKeys are keys every store must keep apart and return intact.
var oddKeys = []string{
	"https://example.com",
	"https://Example.com",
	"http://example.com:8080",
	"https://xn--bcher-kva.example",
	"https://bücher.example",
	"key with spaces",
	" leading and trailing ",
	"tab\there",
	"new\nline",
	"nul\x00inside",
	"\x00",
	"\xff\xfe invalid UTF-8",
	"*",
	"?",
	"[a-z]",
	"{hash}tag",
	"a:b:c",
	"lease:https://example.com",
	"entry:https://example.com",
	"/",
	"..",
	"%00",
	"ключ",
	"鍵",
	"😀",
	"x",
	strings.Repeat("k", store.MaxKeyLen),
}

func testKeys(t *testing.T, h *harness) {
	s, _ := h.start(t)
	for i, k := range oddKeys {
		mustPut(t, s, k, []byte(fmt.Sprintf("value %d", i)), 0)
	}
	for i, k := range oddKeys {
		present(t, s, k, []byte(fmt.Sprintf("value %d", i)))
	}
	// Deleting one key leaves its neighbours.
	mustDelete(t, s, "nul\x00inside")
	missing(t, s, "nul\x00inside")
	missing(t, s, "nul")
	present(t, s, "\x00", []byte(fmt.Sprintf("value %d", slices.Index(oddKeys, "\x00"))))
	present(t, s, "https://example.com", []byte("value 0"))
	missing(t, s, strings.Repeat("k", store.MaxKeyLen-1))
}

func testInvalidKeys(t *testing.T, h *harness) {
	s, _ := h.start(t)
	for _, k := range []string{"", strings.Repeat("k", store.MaxKeyLen+1)} {
		if _, _, err := s.Get(bg, k); !errors.Is(err, store.ErrInvalidKey) {
			t.Errorf("Get of a %d-byte key: error %v, want ErrInvalidKey", len(k), err)
		}
		if err := s.Put(bg, k, []byte("v"), 0); !errors.Is(err, store.ErrInvalidKey) {
			t.Errorf("Put of a %d-byte key: error %v, want ErrInvalidKey", len(k), err)
		}
		if err := s.Delete(bg, k); !errors.Is(err, store.ErrInvalidKey) {
			t.Errorf("Delete of a %d-byte key: error %v, want ErrInvalidKey", len(k), err)
		}
	}
	// The store still works.
	mustPut(t, s, "https://example.com", []byte("v"), 0)
	present(t, s, "https://example.com", []byte("v"))
}

func testTTL(t *testing.T, h *harness) {
	if h.realTime {
		testTTLRealTime(t, h)
		return
	}
	s, c := h.start(t)
	mustPut(t, s, "https://hour.example", []byte("h"), time.Hour)
	mustPut(t, s, "https://forever.example", []byte("f"), 0)
	mustPut(t, s, "https://negative.example", []byte("n"), -time.Second)
	mustPut(t, s, "https://cleared.example", []byte("c1"), time.Minute)
	mustPut(t, s, "https://cleared.example", []byte("c2"), 0) // overwriting drops the ttl
	mustPut(t, s, "https://set.example", []byte("s1"), 0)
	mustPut(t, s, "https://set.example", []byte("s2"), time.Minute) // and sets a new one
	mustPut(t, s, "https://longest.example", []byte("l"), math.MaxInt64)

	c.Advance(59*time.Minute + 59*time.Second)
	present(t, s, "https://hour.example", []byte("h"))
	missing(t, s, "https://set.example")
	present(t, s, "https://cleared.example", []byte("c2"))

	c.Advance(time.Second)
	missing(t, s, "https://hour.example")
	missing(t, s, "https://hour.example") // still gone once looked at
	present(t, s, "https://forever.example", []byte("f"))

	c.Advance(10_000 * time.Hour)
	present(t, s, "https://forever.example", []byte("f"))
	present(t, s, "https://longest.example", []byte("l"))
	present(t, s, "https://negative.example", []byte("n"))
	present(t, s, "https://cleared.example", []byte("c2"))

	// An expired key can be stored again, with a fresh ttl.
	mustPut(t, s, "https://hour.example", []byte("h2"), time.Hour)
	present(t, s, "https://hour.example", []byte("h2"))
	c.Advance(30 * time.Minute)
	present(t, s, "https://hour.example", []byte("h2"))
	c.Advance(30 * time.Minute)
	missing(t, s, "https://hour.example")

	// A ttl shorter than any clock tick a store may round to still expires.
	mustPut(t, s, "https://tiny.example", []byte("t"), time.Nanosecond)
	c.Advance(time.Second)
	missing(t, s, "https://tiny.example")
}

func testTTLRealTime(t *testing.T, h *harness) {
	s, _ := h.start(t)
	mustPut(t, s, "https://hour.example", []byte("h"), time.Hour)
	mustPut(t, s, "https://forever.example", []byte("f"), 0)
	mustPut(t, s, "https://negative.example", []byte("n"), -time.Second)
	mustPut(t, s, "https://short.example", []byte("s"), 3*time.Millisecond)
	mustPut(t, s, "https://cleared.example", []byte("c1"), 3*time.Millisecond)
	mustPut(t, s, "https://cleared.example", []byte("c2"), 0) // overwriting drops the ttl
	mustPut(t, s, "https://tiny.example", []byte("t"), time.Nanosecond)
	mustPut(t, s, "https://longest.example", []byte("l"), math.MaxInt64)

	h.eventually(t, "an entry stored for 3ms is gone", func() bool {
		return isMissing(t, s, "https://short.example")
	})
	h.eventually(t, "an entry stored for 1ns is gone", func() bool {
		return isMissing(t, s, "https://tiny.example")
	})
	present(t, s, "https://hour.example", []byte("h"))
	present(t, s, "https://forever.example", []byte("f"))
	present(t, s, "https://negative.example", []byte("n"))
	present(t, s, "https://cleared.example", []byte("c2"))
	present(t, s, "https://longest.example", []byte("l"))

	mustPut(t, s, "https://short.example", []byte("s2"), time.Hour)
	present(t, s, "https://short.example", []byte("s2"))
}

// valueFor is a value that names its key and a sequence number and carries a
// checksum of both, so a torn or misplaced value is detected.
func valueFor(key string, seq int) []byte {
	body := fmt.Appendf(nil, "%s#%d#", key, seq)
	body = append(body, pattern(string(body), 32+seq%200)...)
	sum := sha256.Sum256(body)
	return append(body, sum[:]...)
}

// checkValue reports whether v is valueFor(key, seq) for some seq, and which.
func checkValue(key string, v []byte) (int, bool) {
	if len(v) < sha256.Size {
		return 0, false
	}
	body, sum := v[:len(v)-sha256.Size], v[len(v)-sha256.Size:]
	if want := sha256.Sum256(body); !bytes.Equal(sum, want[:]) {
		return 0, false
	}
	var seq int
	prefix := key + "#"
	if !bytes.HasPrefix(body, []byte(prefix)) {
		return 0, false
	}
	if _, err := fmt.Sscanf(string(body[len(prefix):]), "%d#", &seq); err != nil {
		return 0, false
	}
	return seq, bytes.Equal(v, valueFor(key, seq))
}

func testConcurrent(t *testing.T, h *harness) {
	s, _ := h.start(t)
	const workers, rounds = 16, 60
	shared := []string{"https://shared0.example", "https://shared1.example", "https://shared2.example"}
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			own := fmt.Sprintf("https://worker%d.example", w)
			for i := range rounds {
				sk := shared[(w+i)%len(shared)]
				if err := s.Put(bg, sk, valueFor(sk, w*rounds+i), time.Hour); err != nil {
					errs <- fmt.Errorf("Put(%q): %v", sk, err)
					return
				}
				if err := s.Put(bg, own, valueFor(own, i), 0); err != nil {
					errs <- fmt.Errorf("Put(%q): %v", own, err)
					return
				}
				v, ok, err := s.Get(bg, sk)
				if err != nil || !ok {
					errs <- fmt.Errorf("Get(%q) = ok %v, err %v; want a value", sk, ok, err)
					return
				}
				if _, good := checkValue(sk, v); !good {
					errs <- fmt.Errorf("Get(%q) returned a torn or foreign value: %s", sk, describe(v))
					return
				}
				v, ok, err = s.Get(bg, own)
				if err != nil || !ok {
					errs <- fmt.Errorf("Get(%q) = ok %v, err %v; want a value", own, ok, err)
					return
				}
				if seq, good := checkValue(own, v); !good || seq != i {
					errs <- fmt.Errorf("Get(%q) = %s, want sequence %d", own, describe(v), i)
					return
				}
				if i%10 == 9 {
					if err := s.Delete(bg, own); err != nil {
						errs <- fmt.Errorf("Delete(%q): %v", own, err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for w := range workers {
		// rounds-1 is a multiple of 10 minus one: the last round deleted it.
		missing(t, s, fmt.Sprintf("https://worker%d.example", w))
	}
	for _, sk := range shared {
		v, ok, err := s.Get(bg, sk)
		if err != nil || !ok {
			t.Fatalf("Get(%q) after the workers: ok %v, err %v", sk, ok, err)
		}
		if _, good := checkValue(sk, v); !good {
			t.Errorf("Get(%q) after the workers: torn value %s", sk, describe(v))
		}
	}
}

func testCancelledContext(t *testing.T, h *harness) {
	s, _ := h.start(t)
	mustPut(t, s, "https://kept.example", []byte("kept"), 0)
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if _, _, err := s.Get(ctx, "https://kept.example"); !errors.Is(err, context.Canceled) {
		t.Errorf("Get with a cancelled context: error %v, want context.Canceled", err)
	}
	if err := s.Put(ctx, "https://new.example", []byte("new"), 0); !errors.Is(err, context.Canceled) {
		t.Errorf("Put with a cancelled context: error %v, want context.Canceled", err)
	}
	if err := s.Delete(ctx, "https://kept.example"); !errors.Is(err, context.Canceled) {
		t.Errorf("Delete with a cancelled context: error %v, want context.Canceled", err)
	}
	dctx, dcancel := context.WithDeadline(bg, time.Unix(1, 0))
	defer dcancel()
	if _, _, err := s.Get(dctx, "https://kept.example"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Get with an expired deadline: error %v, want context.DeadlineExceeded", err)
	}
	if l, ok := s.(store.Leaser); ok {
		if _, err := l.Lease(ctx, "https://kept.example", "owner", time.Minute); !errors.Is(err, context.Canceled) {
			t.Errorf("Lease with a cancelled context: error %v, want context.Canceled", err)
		}
		if err := l.Release(ctx, "https://kept.example", "owner"); !errors.Is(err, context.Canceled) {
			t.Errorf("Release with a cancelled context: error %v, want context.Canceled", err)
		}
	}
	// Nothing the cancelled calls were asked to do was done.
	missing(t, s, "https://new.example")
	present(t, s, "https://kept.example", []byte("kept"))
	if l, ok := s.(store.Leaser); ok {
		if got, err := l.Lease(bg, "https://kept.example", "other", time.Minute); err != nil || !got {
			t.Errorf("Lease after a cancelled Lease = %v, %v; want true, nil", got, err)
		}
	}
}

func testClosed(t *testing.T, h *harness) {
	s, _ := h.start(t)
	mustPut(t, s, "https://example.com", []byte("v"), 0)
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, _, err := s.Get(bg, "https://example.com"); !errors.Is(err, store.ErrClosed) {
		t.Errorf("Get after Close: error %v, want ErrClosed", err)
	}
	if err := s.Put(bg, "https://example.com", []byte("v"), 0); !errors.Is(err, store.ErrClosed) {
		t.Errorf("Put after Close: error %v, want ErrClosed", err)
	}
	if err := s.Delete(bg, "https://example.com"); !errors.Is(err, store.ErrClosed) {
		t.Errorf("Delete after Close: error %v, want ErrClosed", err)
	}
	if l, ok := s.(store.Leaser); ok {
		if _, err := l.Lease(bg, "https://example.com", "owner", time.Minute); !errors.Is(err, store.ErrClosed) {
			t.Errorf("Lease after Close: error %v, want ErrClosed", err)
		}
		if err := l.Release(bg, "https://example.com", "owner"); !errors.Is(err, store.ErrClosed) {
			t.Errorf("Release after Close: error %v, want ErrClosed", err)
		}
	}
	if err := s.Close(); err != nil && !errors.Is(err, store.ErrClosed) {
		t.Errorf("second Close: %v, want nil or ErrClosed", err)
	}
}

func leaser(t *testing.T, s store.Store) store.Leaser {
	t.Helper()
	l, ok := s.(store.Leaser)
	if !ok {
		t.Fatalf("%T does not implement store.Leaser, but the store opened first did", s)
	}
	return l
}

func lease(t *testing.T, l store.Leaser, key, owner string, ttl time.Duration, want bool) {
	t.Helper()
	got, err := l.Lease(bg, key, owner, ttl)
	if err != nil {
		t.Fatalf("Lease(%q, %q, %v): %v", key, owner, ttl, err)
	}
	if got != want {
		t.Fatalf("Lease(%q, %q, %v) = %v, want %v", key, owner, ttl, got, want)
	}
}

func release(t *testing.T, l store.Leaser, key, owner string) {
	t.Helper()
	if err := l.Release(bg, key, owner); err != nil {
		t.Fatalf("Release(%q, %q): %v", key, owner, err)
	}
}

func testLease(t *testing.T, h *harness) {
	s, _ := h.start(t)
	l := leaser(t, s)
	const k = "https://example.com"
	mustPut(t, s, k, []byte("value"), 0)

	lease(t, l, k, "a", time.Minute, true)
	lease(t, l, k, "b", time.Minute, false)
	lease(t, l, k, "a", time.Minute, true) // renewal
	lease(t, l, "https://other.example", "b", time.Minute, true)

	// Leases and values live apart.
	present(t, s, k, []byte("value"))
	mustDelete(t, s, k)
	lease(t, l, k, "b", time.Minute, false)
	mustPut(t, s, k, []byte("value 2"), 0)
	lease(t, l, k, "b", time.Minute, false)

	release(t, l, k, "b") // not the holder: no effect
	lease(t, l, k, "b", time.Minute, false)
	release(t, l, k, "a")
	lease(t, l, k, "b", time.Minute, true)
	lease(t, l, k, "a", time.Minute, false)
	release(t, l, k, "b")
	release(t, l, k, "b") // nobody holds it: nothing to do
	release(t, l, "https://never.example", "a")
	present(t, s, k, []byte("value 2"))

	// Owners and keys with odd bytes are kept apart too.
	lease(t, l, "nul\x00key", "owner\x00one", time.Minute, true)
	lease(t, l, "nul\x00key", "owner\x00two", time.Minute, false)
	lease(t, l, "nul", "owner\x00two", time.Minute, true)
	lease(t, l, "nul\x00key", "owner", time.Minute, false)

	// Bad arguments.
	if _, err := l.Lease(bg, k, "a", 0); !errors.Is(err, store.ErrInvalidTTL) {
		t.Errorf("Lease with ttl 0: error %v, want ErrInvalidTTL", err)
	}
	if _, err := l.Lease(bg, k, "a", -time.Second); !errors.Is(err, store.ErrInvalidTTL) {
		t.Errorf("Lease with a negative ttl: error %v, want ErrInvalidTTL", err)
	}
	if _, err := l.Lease(bg, "", "a", time.Minute); !errors.Is(err, store.ErrInvalidKey) {
		t.Errorf("Lease of an empty key: error %v, want ErrInvalidKey", err)
	}
	if _, err := l.Lease(bg, k, "", time.Minute); !errors.Is(err, store.ErrInvalidKey) {
		t.Errorf("Lease for an empty owner: error %v, want ErrInvalidKey", err)
	}
	if err := l.Release(bg, k, ""); !errors.Is(err, store.ErrInvalidKey) {
		t.Errorf("Release for an empty owner: error %v, want ErrInvalidKey", err)
	}
	if err := l.Release(bg, strings.Repeat("k", store.MaxKeyLen+1), "a"); !errors.Is(err, store.ErrInvalidKey) {
		t.Errorf("Release of a long key: error %v, want ErrInvalidKey", err)
	}
}

func testLeaseExpiry(t *testing.T, h *harness) {
	s, c := h.start(t)
	l := leaser(t, s)
	const k = "https://example.com"
	if h.realTime {
		lease(t, l, k, "a", 3*time.Millisecond, true)
		h.eventually(t, "a lease taken for 3ms can be taken by another owner", func() bool {
			got, err := l.Lease(bg, k, "b", time.Hour)
			if err != nil {
				t.Fatalf("Lease: %v", err)
			}
			return got
		})
		lease(t, l, k, "a", time.Hour, false)
		// A renewal sets the new ttl: a lease taken for 3ms and renewed
		// for an hour is still held.
		lease(t, l, "https://renew.example", "a", 3*time.Millisecond, true)
		lease(t, l, "https://renew.example", "a", time.Hour, true)
		lease(t, l, "https://renew.example", "b", time.Hour, false)
		release(t, l, "https://renew.example", "a")
		lease(t, l, "https://renew.example", "b", time.Hour, true)
		return
	}
	lease(t, l, k, "a", 10*time.Second, true)
	c.Advance(8 * time.Second)
	lease(t, l, k, "b", time.Minute, false)
	lease(t, l, k, "a", 10*time.Second, true) // renewed: now held until 18s
	c.Advance(8 * time.Second)
	lease(t, l, k, "b", time.Minute, false) // 16s: a renewed, still held
	c.Advance(2 * time.Second)
	lease(t, l, k, "b", time.Minute, true) // 18s: expired
	lease(t, l, k, "a", time.Minute, false)
	// Releasing an expired lease one held, now someone else's, does nothing.
	release(t, l, k, "a")
	lease(t, l, k, "a", time.Minute, false)
	// An expired lease of one's own is simply taken again.
	c.Advance(time.Hour)
	lease(t, l, k, "b", time.Minute, true)
}

func testLeaseConcurrent(t *testing.T, h *harness) {
	s, _ := h.start(t)
	l := leaser(t, s)
	const workers = 16
	for _, k := range []string{"https://a.example", "https://b.example"} {
		var wg sync.WaitGroup
		var mu sync.Mutex
		var winners []string
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				owner := fmt.Sprintf("owner-%d", w)
				got, err := l.Lease(bg, k, owner, time.Hour)
				if err != nil {
					t.Errorf("Lease(%q, %q): %v", k, owner, err)
					return
				}
				if got {
					mu.Lock()
					winners = append(winners, owner)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if len(winners) != 1 {
			t.Fatalf("%d concurrent owners took the lease on %q: %v; want exactly one", workers, k, winners)
		}
		lease(t, l, k, winners[0], time.Hour, true)
	}
}

// applyOrSkip applies ops; a store that says ErrNoBatch (a cluster) ends
// the test, logged: it does not promise one transaction for these keys.
func applyOrSkip(t *testing.T, b store.Batcher, ops []store.Op) bool {
	t.Helper()
	err := b.Apply(context.Background(), ops)
	if errors.Is(err, store.ErrNoBatch) {
		t.Logf("Apply: %v: nothing to check", err)
		return false
	}
	if err != nil {
		t.Fatalf("Apply(%d ops): %v", len(ops), err)
	}
	return true
}

func testBatch(t *testing.T, h *harness) {
	s, _ := h.start(t)
	b := s.(store.Batcher)
	mustPut(t, s, "batch gone", []byte("old"), 0)
	mustPut(t, s, "batch kept", []byte("old"), 0)
	if !applyOrSkip(t, b, []store.Op{
		{Key: "batch a", Value: []byte("A")},
		{Key: "batch b", Value: []byte{}},
		{Key: "batch gone", Delete: true},
		{Key: "batch kept", Value: []byte("new")},
		{Key: "batch a", Value: []byte("A2")}, // in order: the last wins
	}) {
		return
	}
	present(t, s, "batch a", []byte("A2"))
	present(t, s, "batch b", []byte{})
	present(t, s, "batch kept", []byte("new"))
	missing(t, s, "batch gone")
	// An empty batch changes nothing, and is no error.
	if err := b.Apply(context.Background(), nil); err != nil {
		t.Errorf("Apply(nil) = %v, want nil", err)
	}
}

func testBatchRefused(t *testing.T, h *harness) {
	s, _ := h.start(t)
	b := s.(store.Batcher)
	// One bad key refuses the whole batch: nothing is written.
	err := b.Apply(context.Background(), []store.Op{
		{Key: "refused a", Value: []byte("A")},
		{Key: "", Value: []byte("B")},
	})
	if !errors.Is(err, store.ErrInvalidKey) {
		t.Errorf("Apply with an empty key = %v, want ErrInvalidKey", err)
	}
	missing(t, s, "refused a")
	ops := make([]store.Op, store.MaxBatch+1)
	for i := range ops {
		ops[i] = store.Op{Key: fmt.Sprintf("refused %d", i), Value: []byte("x")}
	}
	if err := b.Apply(context.Background(), ops); err == nil {
		t.Errorf("Apply of %d ops = nil, want an error (at most %d)", len(ops), store.MaxBatch)
	}
	missing(t, s, "refused 0")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := b.Apply(ctx, []store.Op{{Key: "refused c", Value: []byte("C")}}); !errors.Is(err, context.Canceled) {
		t.Errorf("Apply with a cancelled context = %v, want context.Canceled", err)
	}
	missing(t, s, "refused c")
}

func testScan(t *testing.T, h *harness) {
	s, clock := h.start(t)
	b := s.(store.Batcher)
	for _, k := range []string{"scan c", "scan a", "scan b", "scal x", "scan*", "other"} {
		mustPut(t, s, k, []byte("v "+k), 0)
	}
	keys := func(prefix string, limit int) []string {
		t.Helper()
		es, err := b.Scan(context.Background(), prefix, limit)
		if err != nil {
			t.Fatalf("Scan(%q, %d): %v", prefix, limit, err)
		}
		var out []string
		for _, e := range es {
			if want := "v " + e.Key; string(e.Value) != want {
				t.Errorf("Scan(%q): %q holds %q, want %q", prefix, e.Key, e.Value, want)
			}
			out = append(out, e.Key)
		}
		return out
	}
	if got, want := keys("scan ", 0), []string{"scan a", "scan b", "scan c"}; !slices.Equal(got, want) {
		t.Errorf("Scan(\"scan \") = %q, want %q", got, want)
	}
	if got, want := keys("scan ", 2), []string{"scan a", "scan b"}; !slices.Equal(got, want) {
		t.Errorf("Scan(\"scan \", 2) = %q, want %q", got, want)
	}
	// A prefix with the characters of a glob is matched as bytes.
	if got, want := keys("scan*", 0), []string{"scan*"}; !slices.Equal(got, want) {
		t.Errorf("Scan(\"scan*\") = %q, want %q", got, want)
	}
	if got := keys("nothing ", 0); len(got) != 0 {
		t.Errorf("Scan(\"nothing \") = %q, want none", got)
	}
	mustDelete(t, s, "scan b")
	if got, want := keys("scan ", 0), []string{"scan a", "scan c"}; !slices.Equal(got, want) {
		t.Errorf("Scan after a Delete = %q, want %q", got, want)
	}
	// An expired key is not listed.
	ttl := time.Hour
	if h.realTime {
		ttl = 20 * time.Millisecond
	}
	mustPut(t, s, "scan e", []byte("v scan e"), ttl)
	if h.realTime {
		h.eventually(t, "the expired key to leave Scan", func() bool { return !slices.Contains(keys("scan ", 0), "scan e") })
	} else {
		clock.Advance(2 * ttl)
		if got := keys("scan ", 0); slices.Contains(got, "scan e") {
			t.Errorf("Scan lists an expired key: %q", got)
		}
	}
}
