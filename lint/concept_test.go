package lint

import (
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
)

// TestConceptCrawlDelay: lint says a crawl-delay line in a crawler's own
// group slows nobody exactly when robotstxt.Query.HonoursCrawlDelay says
// the crawler does not wait by it (check and the polite client ask the
// same function), for every crawler of the catalogue named by its token.
func TestConceptCrawlDelay(t *testing.T) {
	for _, c := range robotstxt.Crawlers() {
		if !robotstxt.ValidToken(c.Token) {
			continue
		}
		body := "User-agent: " + c.Token + "\nCrawl-delay: 5\nDisallow: /x\n"
		warned := false
		for _, f := range Check(&File{Name: "robots.txt", Body: []byte(body)}) {
			warned = warned || f.Code == "unsupported-field" && f.Line == 2
		}
		if want := !(robotstxt.Query{Crawler: &c}).HonoursCrawlDelay(); warned != want {
			t.Errorf("%s: lint warns %v, but HonoursCrawlDelay is %v", c.Name, warned, !want)
		}
	}
	// A group of a fallback token only Yandex's robots read.
	fs := Check(&File{Name: "robots.txt", Body: []byte("User-agent: Yandex\nCrawl-delay: 5\nDisallow: /x\n")})
	if !strings.Contains(findingCodes(fs), "unsupported-field") {
		t.Errorf("lint says nothing of a crawl-delay for Yandex, which every Yandex robot ignores")
	}
}

func findingCodes(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.Code + " ")
	}
	return b.String()
}
