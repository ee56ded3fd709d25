package polite

import (
	"testing"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/cache"
	"github.com/seed53c283f5/robotstxt/fetch"
)

// TestConceptCrawlDelay: the polite client paces a crawler by crawl-delay
// exactly when robotstxt.Query.HonoursCrawlDelay says it honours it, for
// every crawler of the catalogue (check and lint ask the same function:
// tester's and lint's concept tests).
func TestConceptCrawlDelay(t *testing.T) {
	r := robotstxt.ParseString("User-agent: *\nCrawl-delay: 7\nDisallow: /x\n")
	a := &cache.Answer{Policy: fetch.Rules, Robots: r}
	for _, c := range robotstxt.Crawlers() {
		tr, err := New(&Options{Crawler: c.Name, UserAgent: "x"})
		if err != nil {
			t.Fatal(err)
		}
		q := robotstxt.Query{Crawler: tr.crawler, Dialect: tr.dialect}
		d, why, _ := tr.pace(a, q)
		paced := why == ReasonCrawlDelay && d == 7*time.Second
		if want := q.HonoursCrawlDelay(); paced != want {
			t.Errorf("%s: paced by crawl-delay %v (%v, %s), HonoursCrawlDelay %v", c.Name, paced, d, why, want)
		}
	}
}
