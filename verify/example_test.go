package verify_test

import (
	"context"
	"fmt"
	"net/netip"

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
