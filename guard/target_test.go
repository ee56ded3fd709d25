package guard

import (
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// TestDoubleSlashTarget: a request-target that starts with "//" is a path
// (robotstxt.TargetURL): "GET //x/private" asks for the path //x/private,
// which GPTBot's "Disallow: /private" does not match, not for the path
// /private of an authority "x".
func TestDoubleSlashTarget(t *testing.T) {
	g, err := Build(Options{Robots: NewStatic([]byte(testRobots), ""), Identity: newFake(), TrustedProxies: loopback, Policy: enforcePolicy(t, "")})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		target  string
		allowed bool
		line    int
	}{
		{"//x/private", true, 3},
		{"//private", true, 3},
		{"/private//x", false, 2},
	} {
		// A host each: the same crawler twice on one host within the
		// file's Crawl-delay would be over-crawl-delay.
		r := httptest.NewRequest("GET", "http://"+strings.TrimLeft(tc.target, "/")[:1]+strconv.Itoa(tc.line)+".example.com/", nil)
		r.RequestURI = tc.target
		r.Header.Set("User-Agent", uaGPTBot)
		r.RemoteAddr = addrVerified.String() + ":4321"
		d := g.Decide(r)
		if d.Allowed != tc.allowed || d.Line != tc.line || d.Path != tc.target {
			t.Errorf("%s: allowed %v line %d path %q, want %v %d", tc.target, d.Allowed, d.Line, d.Path, tc.allowed, tc.line)
		}
	}
}
