package main

import (
	"strings"
	"testing"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/audit"
	"github.com/seed53c283f5/robotstxt/fetch"
)

// TestProbeUserAgents: the User-Agent probe sends as each crawler can be
// sent, and names that crawler as the toolkit's own reading of access
// logs (audit's catalogue) identifies it, so that a site's edge sees the
// crawler probe means. The names with a space ("Kangaroo Bot") are no
// product tokens (docs/crawlers.md): the header holds the name, as the
// crawler's would, and a reading by token finds no crawler in it.
func TestProbeUserAgents(t *testing.T) {
	table := robotstxt.Crawlers()
	cat := audit.NewCatalogue(table)
	spaced := 0
	for i := range table {
		c := &table[i]
		if c.Control {
			continue
		}
		ua := probeUserAgent(c)
		if err := fetch.CheckUserAgent(ua); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
		if !strings.Contains(ua, "compatible; "+c.Token+"/1.0") {
			t.Errorf("%s: %q does not name its token", c.Name, ua)
		}
		if strings.Contains(c.Token, " ") {
			spaced++
			continue
		}
		j := cat.Identify(ua)
		if j < 0 || cat.Crawler(j).Name != c.Name {
			got := "none"
			if j >= 0 {
				got = cat.Crawler(j).Name
			}
			t.Errorf("%s: %q is identified as %s", c.Name, ua, got)
		}
	}
	if spaced != 6 {
		t.Errorf("%d names with a space; docs/crawlers.md lists 6 in the table", spaced)
	}
}
