package lint

import (
	"slices"
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

// TestConceptUsageGroups: lint's usage-groups-differ agrees with the
// groups the core reads (what check and ai answer by): the file,
// where the Disallow already closed the * group, gets no finding; a
// Content-Usage line between two user-agent lines of one Google group
// does.
func TestConceptUsageGroups(t *testing.T) {
	for _, tc := range []struct {
		body string
		want bool
	}{
		{"User-agent: *\nDisallow: /a\nContent-Usage: train-ai=n\n\nUser-agent: Googlebot\nDisallow: /b\n", false},
		{"User-agent: *\nContent-Usage: train-ai=n\nUser-agent: Googlebot\nDisallow: /b\n", true},
		{"User-agent: *\nContent-Usage: train-ai=n\n\nUser-agent: Googlebot\nDisallow: /b\n", true},
		{"User-agent: *\nDisallow: /a\nContent-Usage: train-ai=n\nUser-agent: Googlebot\nDisallow: /b\n", false},
	} {
		r := robotstxt.ParseString(tc.body)
		gbLine := 0
		for i, l := range strings.Split(tc.body, "\n") {
			if l == "User-agent: Googlebot" {
				gbLine = i + 1
			}
		}
		// check's and ai's answer: Googlebot reads the line-1 group's
		// lines (its user-agent line is in the * group) or not.
		gb, _ := robotstxt.LookupCrawler("Googlebot")
		d := r.Decide(gb.Query("/b"))
		merged := slices.Contains(d.Group.Groups, 0)
		if merged != tc.want || !slices.Contains(d.Group.Lines, gbLine) {
			t.Errorf("Googlebot reads groups %v (lines %v); lint is to warn %v:\n%s", d.Group.Groups, d.Group.Lines, tc.want, tc.body)
		}
		got := false
		for _, f := range Check(&File{Name: "robots.txt", Body: []byte(tc.body)}) {
			got = got || f.Code == "usage-groups-differ"
		}
		if got != tc.want {
			t.Errorf("usage-groups-differ %v, want %v:\n%s", got, tc.want, tc.body)
		}
	}
}

// TestConceptDialectSets: the dialect sets of the code table are the core's
// predicates: a dialect is in the set of a first-match code exactly when
// robotstxt.Dialect.FirstMatch says so, and so on; and the default set is
// robotstxt.DefaultDialects.
func TestConceptDialectSets(t *testing.T) {
	var want []string
	for _, d := range robotstxt.DefaultDialects() {
		want = append(want, d.String())
	}
	if got := DefaultDialects(); !slices.Equal(got, want) {
		t.Errorf("lint.DefaultDialects() = %v, the core's %v", got, want)
	}
	sets := map[string]func(robotstxt.Dialect) bool{
		"shadowed-rule":       func(d robotstxt.Dialect) bool { return !d.FirstMatch() },
		"duplicate-rule":      func(d robotstxt.Dialect) bool { return !d.FirstMatch() },
		"blank-line-in-group": robotstxt.Dialect.DraftRecords,
		"dialects-disagree":   robotstxt.Dialect.DraftRecords,
		"accepted-typo":       robotstxt.Dialect.StrictReading,
		"missing-colon":       robotstxt.Dialect.StrictReading,
		"nul-byte":            func(d robotstxt.Dialect) bool { return !d.StrictReading() },
		"bad-crawl-delay":     robotstxt.Dialect.HonoursCrawlDelay,
	}
	for code, pred := range sets {
		c, ok := LookupCode(code)
		if !ok {
			t.Fatalf("no code %s", code)
		}
		for _, d := range robotstxt.Dialects() {
			if slices.Contains(c.Dialects, d.String()) != pred(d) {
				t.Errorf("%s: dialect %s in its set %v, the core's predicate says %v", code, d, c.Dialects, pred(d))
			}
		}
	}
}

// TestEmptyGroupBesideEmptyStar: a * group whose only rule is an empty
// Disallow restricts nothing, so a crawler's group with no rule ignores
// nothing of it (the policy writer's new * group has that rule, so that
// the user-agent lines after it start a group of their own).
func TestEmptyGroupBesideEmptyStar(t *testing.T) {
	for body, want := range map[string]bool{
		"User-agent: *\nDisallow:\nContent-Usage: train-ai=n\n\nUser-agent: Bingbot\n": false,
		"User-agent: *\nDisallow: /x\n\nUser-agent: Bingbot\n":                         true,
	} {
		got := strings.Contains(findingCodes(Check(&File{Name: "r", Body: []byte(body)})), "empty-group")
		if got != want {
			t.Errorf("empty-group %v, want %v:\n%s", got, want, body)
		}
	}
}
