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
