package watch

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/internal/redistest"
	"github.com/seed53c283f5/robotstxt/store/redisstore"
)

// TestFleet: two engines on one Redis share the watches; each check runs
// on one of them, and one alert is sent.
func TestFleet(t *testing.T) {
	addr := redistest.Start(t).Addr
	clk := newClock()
	s := newSite(t, "User-agent: *\nAllow: /\n")
	rc := newReceiver(t)
	var engines []*Engine
	for range 2 {
		st, err := redisstore.Open("redis://"+addr, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		engines = append(engines, newEngine(t, st, clk, nil))
	}
	ctx := context.Background()
	w, err := engines[0].Create(ctx, &Spec{Origin: s.URL, URLs: []string{"/shop/"}, Webhook: rc.URL}, "")
	if err != nil {
		t.Fatal(err)
	}
	// The other engine knows it.
	got, err := engines[1].Get(ctx, w.ID)
	if err != nil || got.Origin != s.URL {
		t.Fatalf("the second engine: %v %+v", err, got)
	}
	both := func() int {
		var wg sync.WaitGroup
		var n [2]int
		for i, e := range engines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n[i], _ = e.Tick(ctx)
			}()
		}
		wg.Wait()
		// The engine that found the origin's lease taken checks on its
		// next tick, and finds the check done.
		for i, e := range engines {
			m, _ := e.Tick(ctx)
			n[i] += m
		}
		return n[0] + n[1]
	}
	if n := both(); n != 1 {
		t.Fatalf("the baseline: %d checks, want 1", n)
	}
	s.set(200, "text/plain", "User-agent: *\nDisallow: /shop/\n")
	clk.Advance(time.Hour)
	if n := both(); n != 1 {
		t.Fatalf("after the change: %d checks, want 1", n)
	}
	if q := engines[0].Pending(ctx); q != 1 {
		t.Fatalf("%d alerts in the outbox, want 1", q)
	}
	if f := s.fetches.Load(); f != 2 {
		t.Errorf("%d fetches, want 2", f)
	}
	for _, e := range engines {
		deliver(t, e)
	}
	r := rc.next(t)
	if !strings.Contains(string(r.body), `"crawler":"Googlebot"`) {
		t.Errorf("alert %s", r.body)
	}
	// Deleted on one, stopped on both.
	if err := engines[1].Delete(ctx, w.ID); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Hour)
	if n := both(); n != 0 {
		t.Errorf("%d checks of a deleted watch", n)
	}
	if f := s.fetches.Load(); f != 2 {
		t.Errorf("%d fetches after the delete, want 2", f)
	}
}
