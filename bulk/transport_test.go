package bulk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestHostLimit: at most n requests at once go to one host; other hosts are
// not held up.
func TestHostLimit(t *testing.T) {
	var mu sync.Mutex
	cur, peak := map[string]int{}, map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		cur[r.Host]++
		peak[r.Host] = max(peak[r.Host], cur[r.Host])
		mu.Unlock()
		time.Sleep(30 * time.Millisecond)
		mu.Lock()
		cur[r.Host]--
		mu.Unlock()
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	client := &http.Client{Transport: NewTransport(16, 2, http.ProxyURL(u))}
	var wg sync.WaitGroup
	for i := range 24 {
		wg.Go(func() {
			resp, err := client.Get(fmt.Sprintf("http://h%d.test/", i%2))
			if err != nil {
				t.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		})
	}
	wg.Wait()
	if peak["h0.test"] != 2 || peak["h1.test"] != 2 {
		t.Errorf("peak requests at once per host: %v, want 2 each", peak)
	}
	lim := client.Transport.(*hostLimit)
	if len(lim.busy) != 0 || len(lim.refs) != 0 {
		t.Errorf("hostLimit keeps %d hosts after the requests", len(lim.busy))
	}
}

// TestSlotClock checks the clock's arithmetic on a fake clock: it runs
// while a request is under way, once however many are, and a request
// started with the budget spent fails at once with a timeout.
func TestSlotClock(t *testing.T) {
	now := time.Unix(1000, 0)
	c := &slotClock{budget: 10 * time.Second, now: func() time.Time { return now }}
	left := func() time.Duration {
		c.mu.Lock()
		defer c.mu.Unlock()
		l := c.budget - c.used
		if c.active > 0 {
			l -= now.Sub(c.since)
		}
		return l
	}
	ctx := context.Background()
	_, stop1, err := c.start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(3 * time.Second)
	_, stop2, err := c.start(ctx) // overlaps the first: counted once
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(2 * time.Second)
	stop1()
	stop1() // a second stop does nothing
	now = now.Add(1 * time.Second)
	stop2()
	if l := left(); l != 4*time.Second {
		t.Fatalf("after 6 s under way: %v left, want 4s", l)
	}
	now = now.Add(time.Hour) // waiting for a slot: not counted
	if l := left(); l != 4*time.Second {
		t.Fatalf("after a wait off the clock: %v left, want 4s", l)
	}
	rctx, stop3, err := c.start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if dl, ok := rctx.Deadline(); !ok || time.Until(dl) > 4*time.Second {
		t.Errorf("a request's deadline is %v away, want at most the 4 s left", time.Until(dl))
	}
	now = now.Add(4 * time.Second)
	stop3()
	if _, _, err := c.start(ctx); !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "timed out after 10s") {
		t.Errorf("start with the budget spent: %v", err)
	}
}

// TestBackstop: the fetcher's own timeout is past the longest wait for
// slots a fetch can see.
func TestBackstop(t *testing.T) {
	if got, want := Backstop(15*time.Second, 64, 2), 6*33*15*time.Second; got != want {
		t.Errorf("Backstop(15s, 64, 2) = %v, want %v", got, want)
	}
	if got, want := Backstop(time.Second, 1, 1), 6*2*time.Second; got != want {
		t.Errorf("Backstop(1s, 1, 1) = %v, want %v", got, want)
	}
}
