package robotstxt

import (
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestCatalogueEntries checks every entry of the table: the fields the
// commands and the service show, typed facts in the form their users (an
// access-log audit) read them, and a source with a date.
func TestCatalogueEntries(t *testing.T) {
	if len(crawlers) < 200 {
		t.Errorf("%d crawlers; the catalogue held 216 when it was made", len(crawlers))
	}
	keys := map[string]string{} // lower-case name, token or alias -> crawler
	for i := range crawlers {
		c := &crawlers[i]
		who := c.Name
		if c.Name == "" || c.Token == "" || c.Purpose == "" {
			t.Errorf("entry %d (%q): name, token and purpose are required", i, c.Name)
		}
		if c.Dialect == DefaultDialect {
			t.Errorf("%s: no dialect", who)
		}
		for _, k := range append([]string{c.Name, c.Token}, c.Aliases...) {
			if other, ok := keys[strings.ToLower(k)]; ok && other != who {
				t.Errorf("%s: %q also names %s", who, k, other)
			}
			keys[strings.ToLower(k)] = who
		}
		if c.Purposes&^(purposeEnd-1) != 0 {
			t.Errorf("%s: purposes %v hold an unknown bit", who, c.Purposes)
		}
		if c.Control != c.Purposes.Has(PurposeTokenOnly) {
			t.Errorf("%s: Control %v but purposes %v", who, c.Control, c.Purposes)
		}
		if c.Control && (len(c.IPRanges) > 0 || len(c.ReverseDNS) > 0) {
			t.Errorf("%s: a control token fetches nothing, yet has addresses", who)
		}
		if c.ObeysRobots > ObeysPartly {
			t.Errorf("%s: ObeysRobots %v", who, c.ObeysRobots)
		}
		if c.ObeysRobots == ObeysPartly && c.RobotsNote == "" {
			t.Errorf("%s: obeys robots.txt partly, with no note saying how", who)
		}
		if c.IgnoresGlobal && c.ObeysRobots != ObeysPartly {
			t.Errorf("%s: ignores the '*' group, so obeys robots.txt partly", who)
		}
		if c.Docs != "" {
			checkHTTPS(t, who+" Docs", c.Docs)
		}
		for _, u := range c.IPRanges {
			checkHTTPS(t, who+" IPRanges", u)
		}
		for _, d := range c.ReverseDNS {
			if !looksLikeDomain(d) {
				t.Errorf("%s: reverse DNS domain %q is not a lower-case domain name", who, d)
			}
		}
		if c.Source != srcEarlier {
			checkHTTPS(t, who+" Source", c.Source)
		}
		if _, err := time.Parse(time.DateOnly, c.Checked); err != nil {
			t.Errorf("%s: Checked %q is not a date: %v", who, c.Checked, err)
		}
		if c.Operator == "" && c.Purposes != 0 && c.Source != srcAIRobots {
			t.Errorf("%s: no operator, though its facts come from %s", who, c.Source)
		}
		checkBehaviourColumns(t, c)
	}
}

func checkHTTPS(t *testing.T, what, s string) {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "https" || u.Host == "" || strings.ContainsAny(s, " \t") {
		t.Errorf("%s: %q is not an https URL", what, s)
	}
}

func looksLikeDomain(s string) bool {
	labels := strings.Split(s, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for i := 0; i < len(l); i++ {
			if c := l[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// slowLookupCrawler is LookupCrawler as it was before the index: a walk
// of the table by name or token, then by alias, ignoring case.
func slowLookupCrawler(name string) (Crawler, bool) {
	name = strings.TrimSpace(name)
	for i := range crawlers {
		if strings.EqualFold(crawlers[i].Name, name) || strings.EqualFold(crawlers[i].Token, name) {
			return crawlers[i], true
		}
	}
	for i := range crawlers {
		for _, a := range crawlers[i].Aliases {
			if strings.EqualFold(a, name) {
				return crawlers[i], true
			}
		}
	}
	return Crawler{}, false
}

// TestLookupCrawlerIndex checks the indexed lookup against the walk, on
// every name, token and alias of the table in several cases, and on names
// it does not hold.
func TestLookupCrawlerIndex(t *testing.T) {
	var names []string
	for _, c := range crawlers {
		for _, n := range append([]string{c.Name, c.Token}, c.Aliases...) {
			names = append(names, n, strings.ToUpper(n), strings.ToLower(n), " "+n+"\t")
		}
	}
	names = append(names, "", "nobot", "Googlebot/2.1", "*", "ſlurp", "SLURP", "yahoo! ſlurp", "\u212Aagi-fetcher")
	for _, n := range names {
		got, ok := LookupCrawler(n)
		want, wok := slowLookupCrawler(n)
		if ok != wok || got.Name != want.Name {
			t.Errorf("LookupCrawler(%q) = %q, %v; the walk finds %q, %v", n, got.Name, ok, want.Name, wok)
		}
	}
}

// TestCrawlersShareNoAppend checks that appending to a slice of a copy
// leaves the table as it was.
func TestCrawlersShareNoAppend(t *testing.T) {
	c, _ := LookupCrawler("Googlebot-Image")
	c.Fallbacks = append(c.Fallbacks, "Changed")
	c.ReverseDNS = append(c.ReverseDNS, "example.com")
	again, _ := LookupCrawler("Googlebot-Image")
	if len(again.Fallbacks) != 1 || len(again.ReverseDNS) != 1 {
		t.Errorf("the table changed: %q %q", again.Fallbacks, again.ReverseDNS)
	}
	all := Crawlers()
	all[0].Name = "Changed"
	if crawlers[0].Name == "Changed" {
		t.Error("Crawlers returned the table itself")
	}
}
