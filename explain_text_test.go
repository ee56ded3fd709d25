package robotstxt

import (
	"strings"
	"testing"
)

// TestLostReasonSingular: a one-byte pattern loses by "1 byte", not
// "1 bytes" (issue 35 item 8).
func TestLostReasonSingular(t *testing.T) {
	r := Parse([]byte("User-agent: *\nDisallow: /\nAllow: /private\n"))
	d := r.Decide(Query{Agents: []string{"FooBot"}, URL: "https://example.com/private/x", Explain: true})
	var lost []string
	for _, m := range d.Matches {
		if m.Lost != "" {
			lost = append(lost, m.Lost)
		}
	}
	if len(lost) != 1 || !strings.Contains(lost[0], "shorter: 1 byte against 8") {
		t.Errorf("lost reasons %q", lost)
	}
}
