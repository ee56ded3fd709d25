package robotstxt

import "testing"

// A query with both Crawler and Agents is answered for the crawler: Agents
// is ignored, as Query documents.
func TestDecideCrawlerWinsOverAgents(t *testing.T) {
	r := Parse([]byte("User-agent: Googlebot\nDisallow: /g\n\nUser-agent: OtherBot\nDisallow: /o\n"))
	g, _ := LookupCrawler("Googlebot")
	for _, tt := range []struct {
		url     string
		allowed bool
	}{{"/g", false}, {"/o", true}} {
		both := r.Decide(Query{URL: tt.url, Crawler: &g, Agents: []string{"OtherBot"}})
		alone := r.Decide(Query{URL: tt.url, Crawler: &g})
		if both.Allowed != tt.allowed || both.Allowed != alone.Allowed || both.Line() != alone.Line() || both.Group.Reason != alone.Group.Reason {
			t.Errorf("%s: with Agents %+v, without %+v", tt.url, both, alone)
		}
	}
}
