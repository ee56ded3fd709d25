package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestBulkPerHostWaitNotTimed: many origins redirect to one slow host,
// whose one slot (--per-host 1) they take in turn. Each request is well
// within the timeout, the queue is not: the timeout counts the fetch, not
// the wait for the slot, so every origin gets its rules. (The timeout ran
// from the start of the fetch: the origins at the end of the queue timed
// out without a request made, unreachable, disallow all.) A host that
// never answers still times out, and says so.
func TestBulkPerHostWaitNotTimed(t *testing.T) {
	const origins = 16
	const slowFor = 250 * time.Millisecond // 16 in turn: 4 s, twice the timeout
	var mu sync.Mutex
	cur, peak, served := 0, 0, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.URL.Hostname()
		if host == "hang.test" {
			<-r.Context().Done()
			return
		}
		if host != "slow.test" {
			http.Redirect(w, r, "http://slow.test/robots.txt?from="+host, http.StatusFound)
			return
		}
		mu.Lock()
		cur++
		peak = max(peak, cur)
		mu.Unlock()
		time.Sleep(slowFor)
		mu.Lock()
		cur--
		served++
		mu.Unlock()
		io.WriteString(w, "User-agent: *\nDisallow: /private\n")
	}))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	u, _ := url.Parse(srv.URL)
	old := bulkProxy
	bulkProxy = http.ProxyURL(u)
	t.Cleanup(func() { bulkProxy = old })
	var in strings.Builder
	for n := range origins {
		fmt.Fprintf(&in, "http://r%d.test/private/x\n", n)
	}
	in.WriteString("http://hang.test/x\n")
	sumFile := filepath.Join(t.TempDir(), "sum.json")
	out, stderr, code := runBulkArgs(t, strings.NewReader(in.String()), "--store", "memory", "--quiet",
		"--per-host", "1", "--timeout", "2s", "--concurrency", "16", "--summary", sumFile)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows := parseRows(t, out)
	if len(rows) != origins+1 {
		t.Fatalf("%d results for %d URLs", len(rows), origins+1)
	}
	if r := rows[origins]; r.Policy != "disallow-all" || !strings.Contains(r.Reason, "timed out after 2s") {
		t.Errorf("the host that never answers: policy %s, reason %q", r.Policy, r.Reason)
	} else {
		t.Logf("the host that never answers: %s", r.Reason)
	}
	bad := 0
	for _, r := range rows[:origins] {
		if r.Policy != "rules" || r.Allowed == nil || *r.Allowed {
			bad++
			t.Logf("%s: policy %s, %s", r.URL, r.Policy, r.Reason)
		}
	}
	var sum bulkSummary
	b, _ := os.ReadFile(sumFile)
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	if bad > 0 || sum.Fetches.Unreachable != 1 {
		t.Errorf("%d of %d origins without their rules, %d unreachable (want 1): the wait for the slow host's slot was timed", bad, origins, sum.Fetches.Unreachable)
	}
	if peak != 1 || served != origins {
		t.Errorf("the slow host served %d requests, at most %d at once; want %d, one at once", served, peak, origins)
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

// TestBulkBackstop: the fetcher's own timeout is past the longest wait for
// slots a fetch can see.
func TestBulkBackstop(t *testing.T) {
	if got, want := bulkBackstop(15*time.Second, 64, 2), 6*33*15*time.Second; got != want {
		t.Errorf("bulkBackstop(15s, 64, 2) = %v, want %v", got, want)
	}
	if got, want := bulkBackstop(time.Second, 1, 1), 6*2*time.Second; got != want {
		t.Errorf("bulkBackstop(1s, 1, 1) = %v, want %v", got, want)
	}
}
