package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/store/boltstore"
)

// waitFor polls cond for up to five seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after 5s: %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestSweeperDeletesExpired checks that the sweeper deletes a bbolt file's
// expired entries, which nothing reads again, and keeps the live ones.
func TestSweeperDeletesExpired(t *testing.T) {
	var now atomic.Int64
	now.Store(time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC).UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()) }
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "cache.db"), &boltstore.Options{Now: clock, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	for i := range 3 {
		if err := st.Put(ctx, fmt.Sprintf("robots:https://site%d.example", i), []byte("x"), time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Put(ctx, "robots:https://live.example", []byte("y"), time.Hour); err != nil {
		t.Fatal(err)
	}
	now.Add(int64(2 * time.Minute))

	logs := &lockedBuffer{}
	stop := startSweeper(ctx, st, 5*time.Millisecond, slog.New(slog.NewTextHandler(logs, nil)))
	waitFor(t, "no sweep logged", func() bool { return strings.Contains(logs.String(), "deleted=3") })
	stop()
	if line := logs.String(); !strings.Contains(line, `msg="swept the cache"`) {
		t.Errorf("log: %s", line)
	}
	// Nothing is left to delete, and the live entry is still there.
	if n, err := st.Sweep(ctx); n != 0 || err != nil {
		t.Errorf("Sweep after the sweeper: %d, %v; want 0, nil", n, err)
	}
	if v, ok, err := st.Get(ctx, "robots:https://live.example"); !ok || err != nil || string(v) != "y" {
		t.Errorf("live entry: %q %v %v", v, ok, err)
	}
}

// countingSweeper is a store whose Sweep counts its calls and fails with
// err; its second call waits for its context, as a long sweep would.
type countingSweeper struct {
	store.Store
	calls   atomic.Int32
	err     error
	blocked chan struct{} // closed once the second call waits
	once    sync.Once
	ended   atomic.Bool // the second call has returned
}

func (c *countingSweeper) Sweep(ctx context.Context) (int, error) {
	if c.calls.Add(1) == 2 {
		c.once.Do(func() { close(c.blocked) })
		<-ctx.Done()
		time.Sleep(5 * time.Millisecond) // a sweep takes a while to stop
		c.ended.Store(true)
		return 5, ctx.Err()
	}
	return 1, c.err
}

// TestSweeperStops checks that a failed sweep is logged and tried again,
// that stop waits for a sweep under way (cut short through its context)
// and that no sweep starts after it, and that a store that cannot sweep,
// or an interval of 0, starts nothing.
func TestSweeperStops(t *testing.T) {
	sw := &countingSweeper{Store: store.NewMemory(nil), err: errors.New("disk full"), blocked: make(chan struct{})}
	logs := &lockedBuffer{}
	stop := startSweeper(context.Background(), sw, time.Millisecond, slog.New(slog.NewTextHandler(logs, nil)))
	<-sw.blocked
	stop() // returns only once the blocked sweep has given up
	if !sw.ended.Load() {
		t.Error("stop returned while a sweep was under way")
	}
	calls := sw.calls.Load()
	time.Sleep(20 * time.Millisecond)
	if got := sw.calls.Load(); got != calls || calls != 2 {
		t.Errorf("sweeps: %d when stopped, %d after; want 2 and no more", calls, got)
	}
	log := logs.String()
	if !strings.Contains(log, "sweeping the cache failed") || !strings.Contains(log, `err="disk full"`) {
		t.Errorf("the failed sweep was not logged: %s", log)
	}
	if strings.Contains(log, "context canceled") {
		t.Errorf("the sweep stopped on purpose was logged as a failure: %s", log)
	}

	idle := &countingSweeper{Store: store.NewMemory(nil), blocked: make(chan struct{})}
	startSweeper(context.Background(), idle, 0, slog.New(slog.DiscardHandler))()
	startSweeper(context.Background(), store.NewMemory(nil), time.Millisecond, slog.New(slog.DiscardHandler))()
	if n := idle.calls.Load(); n != 0 {
		t.Errorf("an interval of 0 swept %d times", n)
	}

	// The sweeper ends with the context it was given, too.
	ctx, cancel := context.WithCancel(context.Background())
	own := &countingSweeper{Store: store.NewMemory(nil), blocked: make(chan struct{})}
	stopOwn := startSweeper(ctx, own, time.Millisecond, slog.New(slog.DiscardHandler))
	<-own.blocked
	cancel()
	stopOwn()
}

// TestServeSweeps checks the wiring: robotstxt serve on a bbolt file
// deletes its expired entries in the background (--sweep-every), and says
// so in its log.
func TestServeSweeps(t *testing.T) {
	useTempCache(t)
	t.Setenv("ROBOTSTXT_TOKEN", "")
	file := filepath.Join(t.TempDir(), "cache.db")
	st, err := boltstore.Open(file, &boltstore.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range 4 {
		if err := st.Put(ctx, fmt.Sprintf("robots:https://gone%d.example", i), []byte("x"), time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	time.Sleep(5 * time.Millisecond) // the entries expire

	_, stderr, stop := startServe(t, "--addr", "127.0.0.1:0", "--store", file, "--sweep-every", "10ms")
	waitFor(t, "serve logged no sweep", func() bool { return strings.Contains(stderr.String(), "deleted=4") })
	if code := stop(); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	st, err = boltstore.Open(file, &boltstore.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if n, err := st.Sweep(ctx); n != 0 || err != nil {
		t.Errorf("Sweep after serve: %d, %v; want 0, nil", n, err)
	}
}
