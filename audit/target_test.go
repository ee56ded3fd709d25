package audit

import (
	"testing"

	"github.com/seed53c283f5/robotstxt"
)

// TestDoubleSlashPath: a logged request-target is a path even when it
// starts with "//": "GET //private/x" asked for the path //private/x, which
// "Disallow: /" blocks and "Disallow: //private/" names; it is no URL with
// the authority "private" and the path /x.
func TestDoubleSlashPath(t *testing.T) {
	r := robotstxt.ParseString("User-agent: GPTBot\nDisallow: //private/\nAllow: /x\n")
	a := newAuditor(t, Options{Versions: []Version{{Source: "robots.txt", Robots: r}}})
	a.AddLine([]byte(line("20.171.1.1", "10/Nov/2026:12:00:00 +0000", "//private/x", uaGPTBot)))
	a.AddLine([]byte(line("20.171.1.1", "10/Nov/2026:12:00:00 +0000", "/x", uaGPTBot)))
	c := find(a.Report(), "GPTBot")
	if c == nil || c.Disallowed != 1 || len(c.TopDisallowed) != 1 ||
		c.TopDisallowed[0].Path != "//private/x" || c.TopDisallowed[0].Line != 2 {
		t.Fatalf("GPTBot: %+v", c)
	}
}
