package polite

import (
	"net/http"
	"testing"

	"github.com/seed53c283f5/robotstxt/cache"
)

// With a Cache of its own (the README's configuration), robots.txt is
// fetched with the crawler's User-Agent, as the pages are: the server's log
// shows one bot, not the toolkit's.
func TestRobotsFetchedWithCrawlerUserAgent(t *testing.T) {
	s := newSite(t, "User-agent: *\nDisallow: /private/\n")
	const ua = "ExampleBot/1.0 (+https://example.com/bot)"
	for _, c := range []*cache.Cache{cache.New(nil), nil} {
		s.mu.Lock()
		s.paths, s.agents = nil, nil
		s.mu.Unlock()
		tr, err := New(&Options{UserAgent: ua, Cache: c})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := (&http.Client{Transport: tr}).Get(s.URL + "/page")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		s.mu.Lock()
		if len(s.paths) != 2 || s.paths[0] != "/robots.txt" {
			t.Fatalf("requests %v", s.paths)
		}
		for i, p := range s.paths {
			if s.agents[i] != ua {
				t.Errorf("cache %v: %s fetched with User-Agent %q, want %q", c != nil, p, s.agents[i], ua)
			}
		}
		s.mu.Unlock()
	}
}
