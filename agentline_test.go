package robotstxt

import (
	"strings"
	"testing"
)

// TestCrawlerNamedYahoo: the case. Decide reads the line as
// Slurp's; CrawlerNamed must say so too.
func TestCrawlerNamedYahoo(t *testing.T) {
	c, ok := CrawlerNamed("Yahoo!  Slurp/3.0")
	if !ok || c.Name != "Slurp" {
		t.Fatalf("CrawlerNamed(Yahoo!  Slurp/3.0) = %q, %v; want Slurp", c.Name, ok)
	}
	slurp, _ := LookupCrawler("Slurp")
	r := ParseString("User-agent: Yahoo!  Slurp/3.0\nDisallow: /\n")
	if d := r.Decide(slurp.Query("/")); d.Allowed || d.Group.Kind != GroupSpecific {
		t.Errorf("Decide(Slurp) = %+v: want the line's group", d.Group)
	}
	for _, v := range []string{"*", "", "  ", "Nobody-Knows-Me"} {
		if c, ok := CrawlerNamed(v); ok {
			t.Errorf("CrawlerNamed(%q) = %s, want none", v, c.Name)
		}
	}
}

// TestCrawlerNamedAgreesWithDecide asks, for every crawler of the table
// and user-agent values built from every crawler's names, whether
// CrawlerNamed and Decide agree on which crawler the line names: the
// crawler CrawlerNamed gives reads the line's group in Google's reading,
// and a line a crawler reads by its own names is one CrawlerNamed names.
func TestCrawlerNamedAgreesWithDecide(t *testing.T) {
	var values []string
	for _, c := range Crawlers() {
		for _, n := range append([]string{c.Name, c.Token}, c.Aliases...) {
			values = append(values, n, n+"/2.1", strings.ToLower(n), n+" (compatible)", n+"-Image", "  "+n+"  ")
		}
	}
	values = append(values, "Yahoo!  Slurp/3.0", "360Spider-x", "Sogou web spider/4.0")
	// A crawler asked by its own names only: no fallback, no '*'.
	own := func(c Crawler) *Crawler {
		c.Fallbacks, c.IgnoresGlobal, c.Dialect = nil, true, Google
		return &c
	}
	for _, v := range values {
		r := ParseString("User-agent: " + v + "\nDisallow: /\n")
		named, ok := CrawlerNamed(v)
		if ok {
			if d := r.Decide(Query{URL: "/", Crawler: own(named)}); d.Group.Kind != GroupSpecific {
				t.Errorf("CrawlerNamed(%q) = %s, but Decide does not read the line for it", v, named.Name)
			}
		}
		for _, c := range Crawlers() {
			d := r.Decide(Query{URL: "/", Crawler: own(c)})
			if d.Group.Kind != GroupSpecific {
				continue
			}
			if !ok {
				t.Errorf("Decide reads %q for %s, CrawlerNamed names no crawler", v, c.Name)
			} else if d2 := r.Decide(Query{URL: "/", Crawler: own(named)}); d2.Group.Kind != GroupSpecific {
				t.Errorf("Decide reads %q for %s, CrawlerNamed names %s", v, c.Name, named.Name)
			}
		}
	}
}
