package robotstxt

import (
	"strings"
	"testing"
)

// TestCountGroupsAgreesWithBuild: the first reading that bounds the lists
// (countGroups) ends groups where the builder does, in every dialect: the
// Baidu reading ends records at blank lines as the original draft does,
// and RFC 9309's reading counts a Content-Usage line as a rule.
func TestCountGroupsAgreesWithBuild(t *testing.T) {
	bodies := []string{
		"User-agent: a\n\nDisallow: /x\nUser-agent: b\nCrawl-delay: 1\n\nUser-agent: c\nDisallow: /\n\nUser-agent: d\n",
		"User-agent: *\nContent-Usage: train-ai=n\nUser-agent: GPTBot\nDisallow: /\n",
		"User-agent: a\nUser-agent b\nContent-Usage: train-ai=n\n\n\nUser-agent: c\nAllow: /\nCrawl-delay: 2\nUser-agent: d\n",
		strings.Repeat("User-agent: x\n\nDisallow: /a\nCrawl-delay: 1\n\n", 300),
	}
	for _, body := range bodies {
		r := ParseString(body)
		for _, d := range Dialects() {
			c := r.compiledFor(d)
			n := c.countGroups(c.body)
			if n.groups != len(c.groups) || n.agents != len(c.agents) || n.exts != len(c.exts) {
				t.Errorf("%s: countGroups %d groups, %d agents, %d exts; the reading has %d, %d, %d\n%.80q",
					d, n.groups, n.agents, n.exts, len(c.groups), len(c.agents), len(c.exts), body)
			}
		}
	}
}

// TestGroupOf: every user-agent line, rule and crawl-delay of a reading's
// groups is in its group by GroupOf; a rule the draft's readings leave
// after a blank line is in none.
func TestGroupOf(t *testing.T) {
	body := "Disallow: /orphan\nUser-agent: a\n\nDisallow: /x\nUser-agent: b\nCrawl-delay: 1\nContent-Usage: train-ai=n\nUser-agent: c\nDisallow: /\n\nUser-agent: *\nAllow: /y\n"
	r := ParseString(body)
	for _, d := range Dialects() {
		groups := r.GroupsFor(d)
		for gi, g := range groups {
			var lines []int
			for _, a := range g.Agents {
				lines = append(lines, a.Line)
			}
			for _, ru := range g.Rules {
				lines = append(lines, ru.Line)
			}
			if g.DelayLine != 0 {
				lines = append(lines, g.DelayLine)
			}
			for _, n := range lines {
				if got, ok := r.GroupOf(d, n); !ok || got != gi {
					t.Errorf("%s: GroupOf(%d) = %d, %v; want %d", d, n, got, ok, gi)
				}
			}
		}
		if _, ok := r.GroupOf(d, 1); ok {
			t.Errorf("%s: line 1, before any user-agent line, is in a group", d)
		}
		_, ok := r.GroupOf(d, 4)
		if draft := d == Baidu || d == Original; ok == draft {
			t.Errorf("%s: GroupOf(4) in a group %v; the draft's readings end the record at line 3", d, ok)
		}
	}
}
