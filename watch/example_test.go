package watch_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/store"
	"github.com/seed53c283f5/robotstxt/tester"
	"github.com/seed53c283f5/robotstxt/watch"
)

// A site's robots.txt changes between two checks: the second check finds
// which watched URL Googlebot lost.
func Example() {
	robots := "User-agent: *\nDisallow: /tmp/\n"
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, robots)
	}))
	defer site.Close()

	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	st := store.NewMemory(nil)
	c := cache.New(&cache.Options{Store: st, Now: clock})
	e, err := watch.New(&watch.Options{
		Store: st,
		Now:   clock,
		Fetch: func(ctx context.Context, origin string) ([]byte, *tester.FetchInfo, error) {
			return tester.FetchInfoOf(ctx, c, origin, nil)
		},
	})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	w, err := e.Create(ctx, &watch.Spec{Origin: site.URL, URLs: []string{"/shop/"}, Crawlers: []string{"Googlebot"}}, "")
	if err != nil {
		panic(err)
	}
	e.Tick(ctx) // the baseline

	robots = "User-agent: *\nDisallow: /\n"
	now = now.Add(time.Hour)
	e.Tick(ctx)

	s, _ := e.Get(ctx, w.ID)
	ev := s.History[0]
	fmt.Println(ev.Severity)
	for _, f := range ev.Changes {
		fmt.Printf("%s %s: allowed %v -> %v (line %d: %s)\n", f.URL, f.Crawler, f.Before.Allowed, f.After.Allowed, f.After.Line, f.After.Rule)
	}
	for _, l := range ev.Summary {
		fmt.Println(l)
	}
	// Output:
	// critical
	// /shop/ Googlebot: allowed true -> false (line 2: Disallow: /)
	// + Disallow: / for * (line 2)
	// - Disallow: /tmp/ for * (old line 2)
}
