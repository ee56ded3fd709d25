package polite

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
)

// A crawl-delay too large for a time.Duration is capped like any other
// large one, not turned into no delay at all.
func TestHugeCrawlDelayIsCapped(t *testing.T) {
	for _, cd := range []string{"99999999999", "1e300", "9223372037"} {
		t.Run(cd, func(t *testing.T) {
			s := newSite(t, "User-agent: *\nCrawl-delay: "+cd+"\n")
			clk := &fakeTime{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
			tr, err := New(&Options{Token: "examplebot", Dialect: robotstxt.Bing, Now: clk.Now, Sleep: clk.Sleep})
			if err != nil {
				t.Fatal(err)
			}
			for range 2 {
				resp, err := (&http.Client{Transport: tr}).Get(s.URL + "/a")
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
			}
			if len(clk.sleeps) != 1 || clk.sleeps[0] != DefaultMaxDelay {
				t.Errorf("crawl-delay %s: sleeps %v, want one of %v (the cap)", cd, clk.sleeps, DefaultMaxDelay)
			}
		})
	}
}

// A request whose context ends while it waits for its turn returns at once
// with the context's error, and is not sent.
func TestPacingWaitEndsWithContext(t *testing.T) {
	s := newSite(t, robots)
	tr, _ := New(&Options{Crawler: "bingbot"}) // real sleep: 2 s between requests
	client := &http.Client{Transport: tr}
	resp, err := client.Get(s.URL + "/a")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.URL+"/b", nil)
	start := time.Now()
	if _, err := client.Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("the wait took %v after its context ended", d)
	}
	if got := strings.Join(s.requested(), " "); got != "/robots.txt /a" {
		t.Errorf("requests %s", got)
	}
}

// The fetcher's own request for /robots.txt is always allowed, whatever
// the file says and whatever the dialect (docs/protocol.md, Scope).
func TestRobotsTxtItselfAllowed(t *testing.T) {
	s := newSite(t, "User-agent: *\nDisallow: /\n")
	for _, opts := range []Options{{Crawler: "Googlebot"}, {Token: "examplebot"}, {Token: "examplebot", Dialect: robotstxt.Original}, {Crawler: "YandexBot"}, {Crawler: "bingbot"}} {
		tr, err := New(&opts)
		if err != nil {
			t.Fatal(err)
		}
		client := &http.Client{Transport: tr}
		resp, err := client.Get(s.URL + "/robots.txt")
		if err != nil {
			t.Errorf("%+v: %v", opts, err)
			continue
		}
		resp.Body.Close()
		if _, err := client.Get(s.URL + "/page"); !errors.Is(err, ErrDisallowed) {
			t.Errorf("%+v: /page: %v", opts, err)
		}
	}
}
