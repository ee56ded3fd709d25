package server

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt/internal/redistest"
	"github.com/seed53c283f5/robotstxt/store/redisstore"
	"github.com/seed53c283f5/robotstxt/store/storetest"
)

// TestWatchFleet: two servers on one Redis share a watch made on one of
// them; the change is checked once and alerted once.
func TestWatchFleet(t *testing.T) {
	addr := redistest.Start(t).Addr
	clk := storetest.NewClock(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	site := newWatchSite(t, "User-agent: *\nAllow: /\n")
	h := newHook(t)
	var servers []*testServer
	for range 2 {
		st, err := redisstore.Open("redis://"+addr, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		servers = append(servers, watchServer(t, clk, &Options{Store: st, AllowPrivate: true}))
	}
	r := post(t, servers[0].URL+"/v1/watches", fmt.Sprintf(`{"origin": %q, "urls": ["/checkout"], "crawlers": ["Bingbot"], "webhook": %q}`, site.URL, h.URL))
	if r.status != 201 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	id := r.json(t)["id"].(string)
	own := []string{OwnerHeader, r.json(t)["owner_secret"].(string)}
	if got := get(t, servers[1].URL+"/v1/watches/"+id, own...); got.status != 200 {
		t.Fatalf("the other server: %d %s", got.status, got.body)
	}
	// Both tick at once, then again (the one that found the lease taken
	// finds the check done).
	round := func() int {
		var wg sync.WaitGroup
		var n [2]int
		for i, s := range servers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n[i], _ = s.watches.Tick(context.Background())
			}()
		}
		wg.Wait()
		for i, s := range servers {
			m, _ := s.watches.Tick(context.Background())
			n[i] += m
		}
		return n[0] + n[1]
	}
	if n := round(); n != 1 {
		t.Fatalf("the baseline: %d checks, want 1", n)
	}
	site.set("User-agent: *\nDisallow: /checkout\n")
	clk.Advance(time.Hour)
	if n := round(); n != 1 {
		t.Fatalf("the change: %d checks, want 1", n)
	}
	_, body := h.next(t)
	if !strings.Contains(string(body), `"url":"/checkout","crawler":"Bingbot"`) {
		t.Errorf("alert %s", body)
	}
	// Every check is done and its alert queued before round returns: once
	// the sender has the receiver's answer, no alert is queued anywhere,
	// and one server in all sent one.
	count := func(metric string) (n int) {
		for _, s := range servers {
			for _, l := range strings.Split(string(get(t, s.URL+"/metrics").body), "\n") {
				if v, ok := strings.CutPrefix(l, metric+" "); ok {
					k, _ := strconv.Atoi(v)
					n += k
				}
			}
		}
		return n
	}
	for deadline := time.Now().Add(time.Minute); count(`robotstxt_watch_alerts_total{result="sent"}`) != 1; {
		if time.Now().After(deadline) {
			t.Fatal("the alert is never counted as sent")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if q := count("robotstxt_watch_alert_queue"); q != 0 {
		t.Errorf("%d alerts still queued", q)
	}
	select {
	case <-h.got:
		t.Error("a second alert")
	default:
	}
}
