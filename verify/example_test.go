package verify_test

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"time"

	"github.com/seed53c283f5/robotstxt"
	"github.com/seed53c283f5/robotstxt/verify"
)

func Example() {
	ranges, err := verify.ParseRanges([]byte(`{"prefixes": [{"ipv4Prefix": "66.249.64.0/27"}, {"ipv6Prefix": "2001:4860:4801:10::/64"}]}`))
	if err != nil {
		panic(err)
	}
	v := verify.New(&verify.Options{NoDNS: true}) // DNS on by default: the system's resolver
	v.AddRanges("Googlebot", ranges)
	googlebot, _ := robotstxt.LookupCrawler("Googlebot")
	claude, _ := robotstxt.LookupCrawler("ClaudeBot")
	for _, c := range []struct {
		ip      string
		crawler robotstxt.Crawler
	}{{"66.249.64.3", googlebot}, {"203.0.113.9", googlebot}, {"203.0.113.9", claude}} {
		r := v.Check(context.Background(), netip.MustParseAddr(c.ip), &c.crawler)
		fmt.Printf("%s as %s: %v (%s)\n", c.ip, c.crawler.Name, r.Outcome, r.Reason)
	}
	// Output:
	// 66.249.64.3 as Googlebot: verified (in Googlebot's published address ranges)
	// 203.0.113.9 as Googlebot: spoofed (outside Googlebot's published address ranges)
	// 203.0.113.9 as ClaudeBot: unverified (no address list and no DNS answer)
}

func ExampleIdentifier() {
	ranges, err := verify.ParseRanges([]byte(`{"prefixes": [{"ipv4Prefix": "66.249.64.0/27"}]}`))
	if err != nil {
		panic(err)
	}
	v := verify.New(&verify.Options{NoDNS: true}) // reverse DNS on by default
	v.AddRanges("Googlebot", ranges)
	id := verify.NewIdentifier(verify.IdentifierOptions{
		Verifier: v,
		Deadline: 50 * time.Millisecond, // the longest a request waits
		// Client: the service's SSRF-guarded *http.Client, for key
		// directories and address lists.
	})
	googlebot, _ := robotstxt.LookupCrawler("Googlebot")
	r, _ := http.NewRequest("GET", "https://example.com/page", nil)
	for _, ip := range []string{"66.249.64.3", "203.0.113.9"} {
		ev := id.Identify(context.Background(), r, netip.MustParseAddr(ip), &googlebot)
		fmt.Printf("%s: %s by %s (%s)\n", ip, ev.Outcome, ev.Method, ev.Reason)
	}
	// Output:
	// 66.249.64.3: verified by ip-ranges (in Googlebot's published address ranges)
	// 203.0.113.9: spoofed by ip-ranges (outside Googlebot's published address ranges)
}
